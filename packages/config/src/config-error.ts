/** A missing or bad environment variable; the message names it and is safe to print as one line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
