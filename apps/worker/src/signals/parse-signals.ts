import { isAddress, normalizeAddress } from '@mdq/chain/address';
import type { SocialSignal } from '@mdq/db/worker';

export class SignalFormatError extends Error {
  override name = 'SignalFormatError';
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Parses operator signal files: JSON lines ({"collection_id", "observed_on", "engagement", "source"})
 * or CSV with a header naming those columns (any order; source optional). Collection ids are
 * normalized to the long form. Errors name the line.
 */
export function parseSignals(text: string): SocialSignal[] {
  const lines = text.split(/\r?\n/);
  const first = lines.find((l) => l.trim() !== '')?.trim() ?? '';
  return first.startsWith('{') ? parseJsonLines(lines) : parseCsv(lines);
}

function parseJsonLines(lines: readonly string[]): SocialSignal[] {
  const out: SocialSignal[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new SignalFormatError(`line ${i + 1}: not JSON`);
    }
    if (typeof value !== 'object' || value === null)
      throw new SignalFormatError(`line ${i + 1}: not an object`);
    const o = value as Record<string, unknown>;
    out.push(toSignal(i + 1, o['collection_id'], o['observed_on'], o['engagement'], o['source']));
  });
  return out;
}

function parseCsv(lines: readonly string[]): SocialSignal[] {
  const rows = lines.map((l, i) => ({ n: i + 1, cells: splitCsv(l) })).filter((r) => r.cells.join('') !== '');
  const header = rows.shift();
  if (!header) return [];
  const col = (name: string) => header.cells.findIndex((c) => c.trim().toLowerCase() === name);
  const [id, day, engagement, source] = ['collection_id', 'observed_on', 'engagement', 'source'].map(col);
  if (
    id === undefined ||
    day === undefined ||
    engagement === undefined ||
    id < 0 ||
    day < 0 ||
    engagement < 0
  ) {
    throw new SignalFormatError(
      'CSV header must name collection_id, observed_on, engagement (and optionally source)',
    );
  }
  return rows.map((r) =>
    toSignal(
      r.n,
      r.cells[id],
      r.cells[day],
      r.cells[engagement],
      source !== undefined && source >= 0 ? r.cells[source] : undefined,
    ),
  );
}

/** RFC 4180 cells: quotes around a cell, doubled quotes inside. */
function splitCsv(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}

function toSignal(
  line: number,
  id: unknown,
  day: unknown,
  engagement: unknown,
  source: unknown,
): SocialSignal {
  const idText = typeof id === 'string' ? id.trim() : '';
  if (!isAddress(idText)) throw new SignalFormatError(`line ${line}: collection_id must be an address`);
  const dayText = typeof day === 'string' ? day.trim() : '';
  if (!DAY.test(dayText) || Number.isNaN(Date.parse(`${dayText}T00:00:00Z`))) {
    throw new SignalFormatError(`line ${line}: observed_on must be YYYY-MM-DD`);
  }
  const value = typeof engagement === 'number' ? engagement : Number(String(engagement ?? '').trim());
  if (!Number.isFinite(value) || value < 0 || String(engagement ?? '').trim() === '') {
    throw new SignalFormatError(`line ${line}: engagement must be a number >= 0`);
  }
  const sourceText = typeof source === 'string' && source.trim() !== '' ? source.trim() : null;
  return {
    collectionId: normalizeAddress(idText),
    observedOn: dayText,
    engagement: value,
    source: sourceText,
  };
}
