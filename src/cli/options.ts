/**
 * The options of a command: `--name`, `--name VALUE` or `--name=VALUE`, strictly. An unknown
 * option names the nearest known one; a missing value says which; a positional argument goes
 * to the command's own handler. Throws ConfigError with a one-line reason.
 */
import type { ConfigFlags } from '../module/config.ts';
import { ConfigError, nearestName } from '../module/config-error.ts';

export interface OptionSpec<T> {
  name: string;
  /** The name of its value, when it takes one (`FILE`). */
  value?: string;
  set: (out: T, value: string) => void;
}

export function readOptions<T>(args: readonly string[], options: ReadonlyArray<OptionSpec<T>>, out: T, command: string, positional: (arg: string) => void): T {
  const names = [...options.map((o) => o.name), '--help'];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-') || a === '-') {
      positional(a);
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    const option = options.find((o) => o.name === name);
    if (!option) {
      const meant = nearestName(name, names);
      throw new ConfigError(`unknown option ${name}; ${meant ? `did you mean ${meant}?` : `see conformance ${command} --help`}`);
    }
    if (!option.value) {
      if (eq > 0) throw new ConfigError(`option ${name} takes no value`);
      option.set(out, '');
      continue;
    }
    let value: string | undefined;
    if (eq > 0) value = a.slice(eq + 1);
    else {
      value = args[i + 1];
      if (value !== undefined && value.startsWith('--')) value = undefined;
      else i++;
    }
    if (value === undefined || value === '') throw new ConfigError(`missing value for ${name} (${name} ${option.value})`);
    option.set(out, value);
  }
  return out;
}

/** What a command that runs a session reads: its configuration, output folder and flags. */
export interface SessionArgs {
  config?: string;
  out: string;
  flags: ConfigFlags;
}

/** The options of every command that starts a session (`run`, `replay`): the module, where it and the simulators are, the reading. */
export function sessionOptions<T extends SessionArgs>(): Array<OptionSpec<T>> {
  return [
    { name: '--config', value: 'FILE', set: (o, v) => (o.config = v) },
    { name: '--out', value: 'DIR', set: (o, v) => (o.out = v) },
    { name: '--module-url', value: 'URL', set: (o, v) => (o.flags.moduleUrl = v) },
    { name: '--registration', value: 'FILE', set: (o, v) => (o.flags.registration = v) },
    { name: '--bind', value: 'ADDR', set: (o, v) => (o.flags.bind = v) },
    { name: '--system-public-url', value: 'URL', set: (o, v) => (o.flags.systemPublicUrl = v) },
    { name: '--gateway-public-url', value: 'URL', set: (o, v) => (o.flags.gatewayPublicUrl = v) },
    { name: '--no-profile', set: (o) => (o.flags.profile = false) },
  ];
}
