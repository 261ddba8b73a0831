/** How a column is written: the same value in NDJSON and CSV, in the API's representation. */
export type ExportType = 'text' | 'int' | 'u64' | 'bool' | 'time' | 'json';

export interface ExportColumn {
  /** The API's camelCase field name. */
  name: string;
  /** SQL over the dataset's relation `x` (trusted text written here, never user input). */
  expr: string;
  type: ExportType;
}

const col = (name: string, expr: string, type: ExportType = 'text'): ExportColumn => ({
  name,
  expr,
  type,
});

/** A field's SQL over `x` and how it is written (text unless said). */
export type ColumnSpec = readonly [expr: string, type?: ExportType];

/** The API's `thumbnailUrl` is made per request from the token URI (its thumbnail hook), never exported. */
type ExportedField<Api> = Exclude<keyof Api & string, 'thumbnailUrl'>;

/**
 * An export's columns named by the API's row type (ListingCard, Bid, TokenSummary…), in the
 * order written: every field of `Api` must be there, and any other name must be one of `Extra`
 * (what the export adds, such as the version of the last change). A field renamed, added or
 * dropped in the API type fails the typecheck here instead of drifting from the export.
 */
export function apiColumns<Api, Extra extends string = never>(
  spec: Record<ExportedField<Api>, ColumnSpec> & Record<Extra, ColumnSpec>,
): ExportColumn[] {
  return Object.entries(spec as Record<string, ColumnSpec>).map(([name, [expr, type]]) =>
    col(name, expr, type),
  );
}
