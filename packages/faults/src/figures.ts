import { appendFile } from 'node:fs/promises';

/**
 * The suite's figures, printed after each scenario (and appended to MDQ_FAULT_REPORT when set) so
 * that docs/RELIABILITY.md can quote the last run.
 */
export async function printFigures(scenario: string, figures: Record<string, unknown>): Promise<void> {
  const line = `fault-suite ${scenario}: ${JSON.stringify(figures)}`;
  console.log(line);
  const file = process.env['MDQ_FAULT_REPORT'];
  if (file) await appendFile(file, `${line}\n`);
}
