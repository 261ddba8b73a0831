/** The datasets `GET /api/export/{dataset}` serves; packages/db describes each one's rows. */
export const EXPORT_DATASET_NAMES = [
  'sales',
  'activities',
  'listings',
  'offers',
  'tokens',
  'ownerships',
  'collections',
] as const;
export type ExportDatasetName = (typeof EXPORT_DATASET_NAMES)[number];
