/**
 * Browser origins as operators write them (MDQ_CORS_ORIGINS, `mdq keys create --origin`): an exact
 * origin (`https://market.example`, `http://127.0.0.1:5173`) or a pattern with one leading `*.`
 * label (`https://*.market.example`: any subdomain, at any depth, never the bare domain). Scheme
 * and port are always exact. Kept here, beside the variable that uses them, so the CLI and the API
 * agree on what a valid entry is and what it matches.
 */
const LABELS = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/;
const ORIGIN = /^(https?):\/\/(\*\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::(\d{1,5}))?$/;

/** The entry normalised (lower case, no trailing slash, default port dropped), or a reason it is not one. */
export function parseOrigin(value: string): { origin: string } | { problem: string } {
  const text = value.trim().toLowerCase().replace(/\/$/, '');
  const match = ORIGIN.exec(text);
  if (!match) {
    return {
      problem: `"${value}" is not an origin: scheme://host[:port] with no path, or https://*.domain`,
    };
  }
  const [, scheme, star, host, port] = match;
  if (port !== undefined && Number(port) > 65535) return { problem: `"${value}" has port ${port} > 65535` };
  const defaultPort = (scheme === 'https' && port === '443') || (scheme === 'http' && port === '80');
  return { origin: `${scheme}://${star ?? ''}${host}${port && !defaultPort ? `:${port}` : ''}` };
}

/** Whether a browser's `Origin` header is one of the entries (exact or by pattern). */
export function originAllowed(entries: readonly string[], origin: string): boolean {
  const given = origin.toLowerCase();
  for (const entry of entries) {
    if (entry === given) return true;
    const star = entry.indexOf('://*.');
    if (star < 0) continue;
    // `https://*.market.example` → scheme `https://`, suffix `.market.example`: at least one label before it.
    const scheme = entry.slice(0, star + 3);
    const suffix = entry.slice(star + 4);
    if (!given.startsWith(scheme)) continue;
    const host = given.slice(scheme.length);
    if (host.endsWith(suffix) && LABELS.test(host.slice(0, -suffix.length))) return true;
  }
  return false;
}
