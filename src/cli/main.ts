/**
 * `conformance <command>`: the suite's command line.
 * Exit codes: 0 success, 1 a MUST check failed, 2 the run could not start (usage, bad config).
 */
import { requirementsCommand } from './requirements.ts';
import { runCommand } from './run.ts';

const USAGE = `usage: conformance <command> [options]

commands:
  run [--config FILE]       certify a module (default: the bundled reference module); --help for options
  requirements [--json]     print the requirements catalogue (a table, or a JSON array)
`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'run':
      return runCommand(rest);
    case 'requirements':
      return requirementsCommand(rest);
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
