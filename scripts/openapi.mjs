// Writes docs/openapi.json: the OpenAPI document the partner API serves at GET /openapi.json,
// from the built package. Run `npm run openapi:update` (it builds first); test/http/openapi.test.ts
// fails while the committed copy differs from what the app serves.
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../dist/http.js';

const target = new URL('../docs/openapi.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log('docs/openapi.json written');
