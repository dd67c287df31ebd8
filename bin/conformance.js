#!/usr/bin/env node
// Entry point of the `conformance` command. In the repository the suite runs from its
// TypeScript sources, without a build step: tsx's loader compiles them on import. The
// published package ships no sources, only the JavaScript built at pack time (`dist/`).
import fs from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
let entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (fs.existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = source;
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
