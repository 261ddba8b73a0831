/**
 * The soak's samples as one SVG of small panels (minutes on x, each panel its own y scale from 0),
 * written by hand like rate-chart.ts: no plotting dependency for a few polylines.
 */
import { escapeXml, niceCeiling } from './rate-chart';

export interface Panel {
  title: string;
  lines: { label: string; values: (number | null)[] }[];
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e'];
const PW = 300;
const PH = 170;
const COLS = 3;
const PAD = { left: 52, right: 10, top: 24, bottom: 30 };

export function soakChartSvg(title: string, minutes: readonly number[], panels: readonly Panel[]): string {
  const rows = Math.ceil(panels.length / COLS);
  const W = COLS * PW;
  const H = 40 + rows * PH;
  const maxX = Math.max(1e-9, ...minutes);
  const parts = panels.map((panel, i) => {
    const ox = (i % COLS) * PW;
    const oy = 40 + Math.floor(i / COLS) * PH;
    const plotW = PW - PAD.left - PAD.right;
    const plotH = PH - PAD.top - PAD.bottom;
    const all = panel.lines.flatMap((l) =>
      l.values.filter((v): v is number => v !== null && Number.isFinite(v)),
    );
    const maxY = niceCeiling(Math.max(1e-9, ...all));
    const sx = (x: number) => ox + PAD.left + (x / maxX) * plotW;
    const sy = (y: number) => oy + PAD.top + plotH - (y / maxY) * plotH;
    const out = [
      `  <text x="${ox + PAD.left}" y="${oy + 14}" font-size="12">${escapeXml(panel.title)}</text>`,
      `  <rect x="${ox + PAD.left}" y="${oy + PAD.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#ccc"/>`,
      `  <text x="${ox + PAD.left - 4}" y="${oy + PAD.top + 4}" text-anchor="end">${fmt(maxY)}</text>`,
      `  <text x="${ox + PAD.left - 4}" y="${oy + PAD.top + plotH + 4}" text-anchor="end">0</text>`,
      `  <text x="${ox + PAD.left}" y="${oy + PH - 14}">0</text>`,
      `  <text x="${ox + PAD.left + plotW}" y="${oy + PH - 14}" text-anchor="end">${fmt(maxX)} min</text>`,
    ];
    panel.lines.forEach((line, j) => {
      const color = COLORS[j % COLORS.length];
      const points = line.values
        .map((v, k) =>
          v === null || !Number.isFinite(v)
            ? null
            : `${sx(minutes[k] as number).toFixed(1)},${sy(v).toFixed(1)}`,
        )
        .filter((p): p is string => p !== null)
        .join(' ');
      out.push(`  <polyline fill="none" stroke="${color}" stroke-width="1.5" points="${points}"/>`);
      if (panel.lines.length > 1)
        out.push(
          `  <text x="${ox + PAD.left + 40 + j * 56}" y="${oy + PH - 14}" fill="${color}">${escapeXml(line.label)}</text>`,
        );
    });
    return out.join('\n');
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="10" role="img">
  <title>${escapeXml(title)}</title>
  <rect width="${W}" height="${H}" fill="white"/>
  <text x="${W / 2}" y="22" text-anchor="middle" font-size="13">${escapeXml(title)}</text>
${parts.join('\n')}
</svg>
`;
}

function fmt(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : String(Number(n.toPrecision(2)));
}
