#!/usr/bin/env node
// Writes src/contract/types.generated.ts from schemas/ (`npm run generate:types`).
import fs from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const { generateTypes, TYPES_FILE } = await import('../src/contract/generate-types.ts');
fs.writeFileSync(TYPES_FILE, await generateTypes());
console.log(`wrote ${TYPES_FILE}`);
