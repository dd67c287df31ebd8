/**
 * `conformance <command>`: the suite's command line.
 * Exit codes: 0 success, 1 a MUST check failed, 2 the run could not start (usage, bad config).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CONTRACT_FILE, PACKAGE_ROOT } from '../contract/paths.ts';
import { requirementsCommand } from './requirements.ts';
import { runCommand } from './run.ts';

const USAGE = `usage: conformance <command> [options]

commands:
  run [--config FILE]       certify a module (default: the bundled reference module); --help for options
  requirements [--json]     print the requirements catalogue (a table, or a JSON array)
  --version                 print the suite's version and the SHA-256 of the contract document
`;

/** `module-conformance <version> (contract sha256 <hex>)`: the suite and the contract it was made from. */
export function versionLine(): string {
  const read = (file: string): Record<string, unknown> => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const pkg = read(path.join(PACKAGE_ROOT, 'package.json'));
  return `${String(pkg.name)} ${String(pkg.version)} (contract sha256 ${String(read(CONTRACT_FILE).sha256)})`;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'run':
      return runCommand(rest);
    case 'requirements':
      return requirementsCommand(rest);
    case '--version':
      process.stdout.write(`${versionLine()}\n`);
      return 0;
    case undefined:
    case '-h':
    case '--help':
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`conformance: unknown command '${command}'\n${USAGE}`);
      return 2;
  }
}
