export {
  EXPORT_DATASET_NAMES,
  EXPORT_DATASETS,
  type ExportDataset,
  type ExportDatasetName,
} from './datasets';
export type { ExportColumn } from './export-column';
export { addExportRows, exportRowsUsed } from './export-quota';
export {
  copyStatement,
  countExportRows,
  type ExportFilter,
  type ExportFormat,
  exportSelect,
  inlineParameters,
} from './export-sql';
export {
  countLines,
  cursorOfRow,
  type ExportRequest,
  type ExportSummary,
  type OpenedExport,
  openExport,
  parseTrailer,
  trailerLine,
} from './export-stream';
