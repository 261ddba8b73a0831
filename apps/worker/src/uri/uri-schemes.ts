/** Where a metadata or image URI can be fetched over HTTP(S): gateway URLs in the order to try. */
export interface GatewayConfig {
  ipfsGateways: readonly string[];
  arweaveGateway: string;
  /** Origins fetched even at a private address (the embedded devnet's server); see SafeFetchOptions. */
  trustedOrigins?: readonly string[];
}

/** The trusted origins in the form safeFetch compares (`URL.origin`); malformed entries are dropped. */
export function trustedOriginSet(origins: readonly string[] | undefined): ReadonlySet<string> {
  const set = new Set<string>();
  for (const origin of origins ?? []) {
    try {
      set.add(new URL(origin).origin);
    } catch {
      // Config validation names a bad entry; a stray one here trusts nothing.
    }
  }
  return set;
}

export type ResolvedUri =
  | { kind: 'http'; candidates: string[] }
  | { kind: 'data'; mediaType: string; body: Buffer; uri: string }
  | { kind: 'unsupported'; reason: string };

function withSlash(base: string): string {
  return base.endsWith('/') ? base : `${base}/`;
}

export function resolveUri(raw: string, gateways: GatewayConfig): ResolvedUri {
  const uri = raw.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1]?.toLowerCase();
  if (scheme === 'ipfs') {
    // ipfs://CID/path and the legacy ipfs://ipfs/CID/path both name /ipfs/CID/path.
    const path = uri.replace(/^ipfs:\/\/(ipfs\/)?/i, '');
    if (path === '') return { kind: 'unsupported', reason: 'empty ipfs path' };
    return { kind: 'http', candidates: gateways.ipfsGateways.map((g) => withSlash(g) + path) };
  }
  if (scheme === 'ar') {
    const id = uri.replace(/^ar:\/\//i, '');
    if (id === '') return { kind: 'unsupported', reason: 'empty arweave id' };
    return { kind: 'http', candidates: [withSlash(gateways.arweaveGateway) + id] };
  }
  if (scheme === 'http' || scheme === 'https') {
    try {
      return { kind: 'http', candidates: [new URL(uri).toString()] };
    } catch {
      return { kind: 'unsupported', reason: 'malformed URL' };
    }
  }
  if (scheme === 'data') return parseDataUri(uri);
  return { kind: 'unsupported', reason: scheme ? `unsupported scheme ${scheme}` : 'not a URI' };
}

/** RFC 2397: data:[<mediatype>][;base64],<data>. */
function parseDataUri(uri: string): ResolvedUri {
  const comma = uri.indexOf(',');
  if (comma < 0) return { kind: 'unsupported', reason: 'malformed data URI' };
  const meta = uri.slice(5, comma).split(';');
  const base64 = meta.at(-1)?.toLowerCase() === 'base64';
  const mediaType = (meta[0] || 'text/plain').toLowerCase();
  const payload = uri.slice(comma + 1);
  try {
    const body = base64 ? Buffer.from(payload, 'base64') : Buffer.from(decodeURIComponent(payload), 'utf8');
    return { kind: 'data', mediaType, body, uri };
  } catch {
    return { kind: 'unsupported', reason: 'malformed data URI payload' };
  }
}
