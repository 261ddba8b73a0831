/**
 * The soak's samples as one SVG of small panels (minutes on x, each panel its own y scale from 0),
 * written by hand like rate-chart.ts: no plotting dependency for a few polylines.
 */
import { PROCESS_NAMES, type SoakSample } from '@mdq/faults';
import { escapeXml, niceCeiling } from './rate-chart';

interface Panel {
  title: string;
  lines: { label: string; values: (number | null)[] }[];
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e'];
/** One colour per process in every panel. */
const PROCESS_COLORS: Record<string, string> = {
  devnet: '#7f7f7f',
  indexer: '#d62728',
  worker: '#2ca02c',
  api: '#9467bd',
};
const PW = 300;
const PH = 170;
const COLS = 3;
const PAD = { left: 52, right: 10, top: 24, bottom: 30 };

const MB = 2 ** 20;

/** The soak's samples as nine panels: memory, heap, loop delay, descriptors, sizes, lag, latency, backlog. */
export function soakChartSvg(title: string, samples: readonly SoakSample[]): string {
  const toMb = (v: number | null) => (v === null ? null : v / MB);
  const nodes = ['indexer', 'worker', 'api'] as const;
  const panels: Panel[] = [
    {
      title: 'RSS (MB)',
      lines: PROCESS_NAMES.map((p) => ({
        label: p,
        values: samples.map((s) => toMb(s.processes[p].rssBytes)),
      })),
    },
    {
      title: 'V8 heap used (MB)',
      lines: nodes.map((p) => ({ label: p, values: samples.map((s) => toMb(s.processes[p].heapUsedBytes)) })),
    },
    {
      title: 'event-loop delay p99 (ms)',
      lines: nodes.map((p) => ({ label: p, values: samples.map((s) => s.processes[p].eventLoopP99Ms) })),
    },
    {
      title: 'open descriptors',
      lines: PROCESS_NAMES.map((p) => ({ label: p, values: samples.map((s) => s.processes[p].fds) })),
    },
    { title: 'database (MB)', lines: [{ label: 'db', values: samples.map((s) => toMb(s.databaseBytes)) }] },
    {
      title: 'Redis used_memory (MB)',
      lines: [{ label: 'redis', values: samples.map((s) => toMb(s.redisBytes)) }],
    },
    { title: 'indexer lag (versions)', lines: [{ label: 'lag', values: samples.map((s) => s.lagVersions) }] },
    {
      title: 'API latency (ms)',
      lines: [
        { label: 'p50', values: samples.map((s) => s.api.p50Ms) },
        { label: 'p99', values: samples.map((s) => s.api.p99Ms) },
      ],
    },
    {
      title: 'queue backlog (waiting + active)',
      lines: [
        { label: 'all', values: samples.map((s) => Object.values(s.queues).reduce((a, b) => a + b, 0)) },
      ],
    },
  ];
  return panelsSvg(
    title,
    samples.map((s) => s.t / 60),
    panels,
  );
}

function panelsSvg(title: string, minutes: readonly number[], panels: readonly Panel[]): string {
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
      const color = PROCESS_COLORS[line.label] ?? COLORS[j % COLORS.length];
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
          `  <text x="${ox + PAD.left + 22 + j * 44}" y="${oy + PH - 14}" fill="${color}">${escapeXml(line.label)}</text>`,
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
