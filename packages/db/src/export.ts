/** `@mdq/db/export`: the bulk export's datasets and their streamed COPY (`mdq export`, `GET /export`). */
export * from './export/index';
