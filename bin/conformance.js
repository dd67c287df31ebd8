#!/usr/bin/env node
// Entry point of the `conformance` command. The suite is written in TypeScript and run
// without a build step: tsx's loader compiles it on import.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
