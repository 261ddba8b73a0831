import { type Static, Type } from 'typebox';
import { IsoTime, StringEnum, U64Out } from './common';

export const InventoryHistory = Type.Object({
  address: Type.String(),
  range: StringEnum(['24h', '7d', '30d', 'all']),
  bucket: Type.String({ description: 'bucket width, e.g. "1 hour"' }),
  points: Type.Array(
    Type.Object({
      timestamp: IsoTime,
      tokenCount: Type.Integer(),
      floorValue: U64Out,
      live: Type.Boolean({ description: 'computed now from ownerships and live floors (no snapshot yet)' }),
    }),
  ),
});
export type InventoryHistory = Static<typeof InventoryHistory>;
