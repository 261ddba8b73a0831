/**
 * Lines that carry a stack trace: a frame on a line of its own (`    at …`), or one inside a JSON
 * line (`"stack":"Error: …\n    at …"`).
 */
export function stackTraceLines(lines: readonly string[]): string[] {
  return lines.filter((line) => /^\s+at\s|\\n\s+at\s|"stack"/.test(line));
}
