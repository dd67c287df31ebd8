// Starts the reference module: from its TypeScript sources through tsx in the repository
// (the same as `node --import tsx examples/reference-module/main.ts`), from the JavaScript
// built at pack time (`dist/`) in the installed package, which ships no sources.
import fs from 'node:fs';

const source = new URL('./main.ts', import.meta.url);
let entry = new URL('../../dist/examples/reference-module/main.js', import.meta.url);
if (fs.existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = source;
}
await import(entry.href);
