import type { EventRef } from './domain';
import type { TxView } from './transaction-view';

export function eventRef(view: TxView, eventIndex: number): EventRef {
  return { version: view.version, eventIndex, timestampUs: view.timestampUs };
}
