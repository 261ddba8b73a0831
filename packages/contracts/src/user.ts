import { type Static, Type } from 'typebox';
import { IsoTime, U64Out } from './common';

const InventoryRange = (options: { default?: string; description?: string } = {}) =>
  Type.Union([Type.Literal('24h'), Type.Literal('7d'), Type.Literal('30d'), Type.Literal('all')], options);

export const InventoryHistory = Type.Object({
  address: Type.String(),
  range: InventoryRange(),
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
