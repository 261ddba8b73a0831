import { writeFile } from 'node:fs/promises';
import { apiDocument, GENERATED, renderTypes } from './render';

await writeFile(GENERATED, await renderTypes(await apiDocument()));
console.log(`wrote ${GENERATED.pathname}`);
