/**
 * Chain timestamps are microseconds; a JS Date keeps milliseconds only. Postgres timestamptz keeps
 * microseconds, so the ISO string carries all six fraction digits.
 */
export function usToIso(us: string): string {
  const digits = us.padStart(7, '0');
  const seconds = Number(digits.slice(0, -6));
  const micros = digits.slice(-6);
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, `.${micros}Z`);
}

export function secsToIso(secs: string): string {
  return new Date(Number(secs) * 1000).toISOString();
}
