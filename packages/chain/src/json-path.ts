/**
 * The subset of JSONPath the marketplace configs use: `$.a.b`, `$.a[0]`, `$.token.vec[0].inner`.
 * Paths are parsed once when a config is compiled so a bad path fails at start-up, not per event.
 */
export type PathSegment = string | number;

const SEGMENT = /\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/y;

export function parseJsonPath(path: string): PathSegment[] {
  if (!path.startsWith('$')) throw new Error(`JSON path must start with '$': ${path}`);
  const segments: PathSegment[] = [];
  let position = 1;
  while (position < path.length) {
    SEGMENT.lastIndex = position;
    const match = SEGMENT.exec(path);
    if (!match) throw new Error(`unsupported JSON path syntax at ${position}: ${path}`);
    segments.push(match[1] !== undefined ? match[1] : Number(match[2]));
    position = SEGMENT.lastIndex;
  }
  return segments;
}

export function readPath(value: unknown, segments: readonly PathSegment[]): unknown {
  let current: unknown = value;
  for (const segment of segments) {
    if (typeof segment === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[segment];
    } else {
      if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
      current = (current as Record<string, unknown>)[segment];
    }
  }
  return current;
}
