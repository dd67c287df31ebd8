/**
 * `conformance <command>`: the suite's command line.
 * Exit codes: 0 success, 1 a MUST check failed, 2 the run could not start (usage, bad config).
 */
import { suiteLine } from '../contract/suite.ts';
import { nearestName } from '../module/config-error.ts';
import { RUN_USAGE, runCommand } from './run.ts';

const USAGE = `usage: conformance <command> [options]

commands:
  run [--config FILE]       certify a module (default: the bundled reference module); --help for options
  merge DIR...              join the output folders of a run's shards (run --shard I/N) into its reports; --help for options
  replay FILE               send a saved failure (failures/<check>.<property>.json) again and judge it; --help for options
  init [--kinds K,...]      write a commented configuration for your module (conformance.config.json); --help for options
  requirements [--json]     print the requirements catalogue (a table, or a JSON array)
  baseline [RESULTS]        write a baseline of a run's failures, for run --baseline FILE; --help for options
  bundle [DIR]              pack a run's reports, its redacted config and their SHA-256 into one bundle; --help for options
  verify FILE               check a bundle (conformance bundle) and print its verdict; --help for options
  --version                 print the suite's version and the SHA-256 of the contract document (also -V, version)
  help [COMMAND]            print this, or the usage of a command
`;

/**
 * Each command's own usage (`conformance help COMMAND`, `conformance COMMAND --help`). `replay` and
 * `requirements` are imported when asked for: a `run`, started hundreds of times by CI and by the
 * self-tests, does not load them (0.2 s of CPU a start).
 */
const COMMAND_USAGE: Record<string, () => Promise<string>> = {
  run: async () => RUN_USAGE,
  replay: async () => (await import('./replay.ts')).REPLAY_USAGE,
  merge: async () => (await import('./merge.ts')).MERGE_USAGE,
  requirements: async () => (await import('./requirements.ts')).REQUIREMENTS_USAGE,
  init: async () => (await import('./init.ts')).INIT_USAGE,
  bundle: async () => (await import('./bundle.ts')).BUNDLE_USAGE,
  verify: async () => (await import('./verify.ts')).VERIFY_USAGE,
  baseline: async () => (await import('./baseline.ts')).BASELINE_USAGE,
};

/** What may be typed first, for the nearest one to a misspelling. */
const COMMANDS = ['run', 'merge', 'replay', 'requirements', 'init', 'baseline', 'bundle', 'verify', 'help', 'version', '--version', '--help'];

/** `module-conformance <version> (contract sha256 <hex>)`: the suite and the contract it was made from. */
export function versionLine(): string {
  return suiteLine();
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'run':
      return runCommand(rest);
    case 'replay':
      return (await import('./replay.ts')).replayCommand(rest);
    case 'merge':
      return (await import('./merge.ts')).mergeCommand(rest);
    case 'requirements':
      return (await import('./requirements.ts')).requirementsCommand(rest);
    case 'bundle':
      return (await import('./bundle.ts')).bundleCommand(rest);
    case 'verify':
      return (await import('./verify.ts')).verifyCommand(rest);
    case 'init':
      return (await import('./init.ts')).initCommand(rest);
    case 'baseline':
      return (await import('./baseline.ts')).baselineCommand(rest);
    case '--version':
    case '-V':
    case '-v':
    case 'version':
      process.stdout.write(`${versionLine()}\n`);
      return 0;
    case 'help':
    case '-h':
    case '--help': {
      const topic = rest[0];
      if (topic === undefined) {
        process.stdout.write(USAGE);
        return 0;
      }
      const usage = COMMAND_USAGE[topic];
      if (usage) {
        process.stdout.write(await usage());
        return 0;
      }
      const meant = nearestName(topic, Object.keys(COMMAND_USAGE));
      process.stderr.write(`conformance help: no command '${topic}'${meant ? `; did you mean ${meant}?` : ''}\n${USAGE}`);
      return 2;
    }
    case undefined:
      process.stdout.write(USAGE);
      return 2;
    default: {
      const meant = nearestName(command, COMMANDS);
      process.stderr.write(`conformance: unknown command '${command}'${meant ? `; did you mean ${meant}?` : ''}\n${USAGE}`);
      return 2;
    }
  }
}
