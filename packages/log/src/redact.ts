/**
 * Credentials never reach a log line, a metric or an error message. Two layers:
 * - the places that log a URL or headers call `redactUrl` (the API's request serializer), so the
 *   line still says which route was asked, with `apiKey=[redacted]`;
 * - every line the logger writes goes through `redactSecrets` last, whatever field carries it: mdq's
 *   own key formats (`mdq_<id>_…`, `mdq_pk_<id>_…`: the id stays, it names the key without being
 *   it), webhook secrets (`whsec_…`), `Bearer` / `Basic` credentials, credential query parameters,
 *   and the operator's own secrets registered at start (`registerSecret`: MDQ_API_KEY, MDQ_ADMIN_KEY,
 *   APTOS_GRPC_API_KEY, which need not follow any format).
 */

const REDACTED = '[redacted]';

/** Query parameters that carry a credential (case-insensitive). */
const CREDENTIAL_PARAM =
  /([?&](?:api[_-]?key|key|token|access[_-]?token|secret|password|admin[_-]?key)=)[^&#\s"]*/gi;

const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/\b(mdq_(?:pk_)?[0-9a-f]{8}_)[A-Za-z0-9_-]{8,}/g, `$1${REDACTED}`],
  [/\bwhsec_[A-Za-z0-9_-]{8,}/g, `whsec_${REDACTED}`],
  [/\b(Bearer|Basic) [A-Za-z0-9._~+/=-]{8,}/g, `$1 ${REDACTED}`],
  [CREDENTIAL_PARAM, `$1${REDACTED}`],
];

const registered = new Set<string>();

/**
 * A secret of the operator's (a configured key) to cut from every line this process writes.
 * Short values are refused: cutting a common word from every line would say nothing of it.
 */
export function registerSecret(value: string | undefined): void {
  if (!value || value.length < 8) return;
  registered.add(value);
  // As it appears inside a JSON string (quotes and backslashes escaped).
  registered.add(JSON.stringify(value).slice(1, -1));
}

/** A URL (path and query) with the values of credential parameters replaced. */
export function redactUrl(url: string): string {
  return url.replace(CREDENTIAL_PARAM, `$1${REDACTED}`);
}

/** Any text (a log line, a message) with every credential mdq knows of replaced. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  for (const secret of registered) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}
