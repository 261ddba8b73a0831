/**
 * The ingestion rate along the chain as an SVG line chart (transactions indexed → tx/s), drawn
 * from a bench's own batch commits so the flatness (or the fall) as tables grow can be seen.
 */
import type { RatePoint } from './ingest-run';

const W = 720;
const H = 320;
const PAD = { left: 64, right: 16, top: 36, bottom: 44 };

/** The rate over windows of about `window` transactions (single batches are too noisy to read). */
function smoothedRate(points: readonly RatePoint[], window: number): { x: number; y: number }[] {
  const out: { x: number; y: number }[] = [];
  let from: RatePoint = { transactions: 0, elapsedMs: 0 };
  for (const p of points) {
    if (p.transactions - from.transactions < window && p !== points.at(-1)) continue;
    const seconds = (p.elapsedMs - from.elapsedMs) / 1000;
    if (seconds > 0)
      out.push({
        x: (from.transactions + p.transactions) / 2,
        y: (p.transactions - from.transactions) / seconds,
      });
    from = p;
  }
  return out;
}

export function rateChartSvg(points: readonly RatePoint[], title: string): string {
  const total = points.at(-1)?.transactions ?? 0;
  const series = smoothedRate(points, Math.max(1, Math.round(total / 100)));
  const maxY = niceCeiling(Math.max(1, ...series.map((s) => s.y)));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const sx = (x: number) => PAD.left + (x / Math.max(1, total)) * plotW;
  const sy = (y: number) => PAD.top + plotH - (y / maxY) * plotH;
  const line = series.map((s) => `${sx(s.x).toFixed(1)},${sy(s.y).toFixed(1)}`).join(' ');
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * maxY);
  const xTicks = [0, 0.2, 0.4, 0.6, 0.8, 1].map((f) => f * total);
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11" role="img">
  <title>${escapeXml(title)}</title>
  <rect width="${W}" height="${H}" fill="white"/>
  <text x="${W / 2}" y="20" text-anchor="middle" font-size="13">${escapeXml(title)}</text>
${yTicks
  .map(
    (y) =>
      `  <line x1="${PAD.left}" x2="${W - PAD.right}" y1="${sy(y).toFixed(1)}" y2="${sy(y).toFixed(1)}" stroke="#ddd"/>\n` +
      `  <text x="${PAD.left - 6}" y="${(sy(y) + 4).toFixed(1)}" text-anchor="end">${fmt(y)}</text>`,
  )
  .join('\n')}
${xTicks
  .map(
    (x) => `  <text x="${sx(x).toFixed(1)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${fmt(x)}</text>`,
  )
  .join('\n')}
  <text x="${W / 2}" y="${H - 8}" text-anchor="middle">transactions indexed</text>
  <text x="14" y="${H / 2}" text-anchor="middle" transform="rotate(-90 14 ${H / 2})">tx/s</text>
  <polyline fill="none" stroke="#1f77b4" stroke-width="2" points="${line}"/>
</svg>
`;
}

export function niceCeiling(n: number): number {
  const step = 10 ** Math.floor(Math.log10(n));
  return Math.ceil(n / step) * step;
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
