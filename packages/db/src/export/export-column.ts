/** How a column is written: the same value in NDJSON and CSV, in the API's representation. */
export type ExportType = 'text' | 'int' | 'u64' | 'bool' | 'time' | 'json';

export interface ExportColumn {
  /** The API's camelCase field name. */
  name: string;
  /** SQL over the dataset's relation `x` (trusted text written here, never user input). */
  expr: string;
  type: ExportType;
}

export const col = (name: string, expr: string, type: ExportType = 'text'): ExportColumn => ({
  name,
  expr,
  type,
});
