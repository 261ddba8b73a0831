/** Where the indexer's loop and its helpers (outbox drainer, sources) report: fields first, then the message. */
export interface IndexerLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}
