/**
 * `conformance run [--config FILE] [options]`: certifies a module. Starts Playwright on the
 * conformance specs with the resolved configuration, then reads `results.json`.
 * Exit 0: no MUST check failed; 1: one did; 2: the run could not start (one-line reason).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { ConfigError, loadConfig, type ConfigFlags } from '../module/config.ts';
import { PACKAGE_ROOT } from '../contract/paths.ts';
import { ENV_CONFIG, ENV_OUT } from '../run/environment.ts';
import type { Results } from '../report/results.ts';
import { verdictText } from '../report/coverage.ts';

export const RUN_USAGE = `usage: conformance run [--config FILE] [options]

  --config FILE            run configuration (default: the bundled reference module)
  --out DIR                output folder (default: reports)
  --module-url URL         remote mode: the module runs at URL
  --registration FILE      remote mode: the module's integrationModule JSON
  --bind ADDR              address the simulators listen on (default 127.0.0.1)
  --system-public-url URL  address the module uses to reach the system simulator
  --gateway-public-url URL address the module uses to reach the gateway simulator
  --no-profile             the document alone: skip wire-profile (WIRE-) checks
  --grep PATTERN           run only the specs whose title matches
`;

interface RunArgs {
  config?: string;
  out: string;
  grep?: string;
  flags: ConfigFlags;
}

function parse(args: string[]): RunArgs {
  const out: RunArgs = { out: 'reports', flags: {} };
  const value = (i: number, name: string): string => {
    const v = args[i + 1];
    if (v === undefined || v.startsWith('--')) throw new ConfigError(`${name} needs a value`);
    return v;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    switch (a) {
      case '--config': out.config = value(i++, a); break;
      case '--out': out.out = value(i++, a); break;
      case '--grep': out.grep = value(i++, a); break;
      case '--module-url': out.flags.moduleUrl = value(i++, a); break;
      case '--registration': out.flags.registration = value(i++, a); break;
      case '--bind': out.flags.bind = value(i++, a); break;
      case '--system-public-url': out.flags.systemPublicUrl = value(i++, a); break;
      case '--gateway-public-url': out.flags.gatewayPublicUrl = value(i++, a); break;
      case '--no-profile': out.flags.profile = false; break;
      default: throw new ConfigError(`unknown option ${a}`);
    }
  }
  return out;
}

/**
 * Environment for a child Playwright run: Playwright's own worker variables are not passed
 * on (a run started from inside a test would otherwise take itself for a worker).
 */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  return Object.fromEntries(Object.entries(env).filter(([k, v]) => v !== undefined && !/^(TEST_|PW_|PLAYWRIGHT_)/.test(k))) as NodeJS.ProcessEnv;
}

export async function runCommand(args: string[]): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    process.stdout.write(RUN_USAGE);
    return 0;
  }
  let parsed: RunArgs;
  let config;
  try {
    parsed = parse(args);
    config = loadConfig(parsed.config ? path.resolve(parsed.config) : undefined, parsed.flags);
  } catch (e) {
    process.stderr.write(`conformance run: ${(e as Error).message}\n`);
    return 2;
  }
  const out = path.resolve(parsed.out);
  fs.mkdirSync(out, { recursive: true });
  for (const f of ['results.json', 'conformance.html', 'aborted.json', 'junit.xml', 'session-records', 'launches.log']) fs.rmSync(path.join(out, f), { recursive: true, force: true });
  const configFile = path.join(out, '.run-config.json');
  fs.writeFileSync(configFile, JSON.stringify(config), { mode: 0o600 });

  const require = createRequire(import.meta.url);
  const playwrightCli = path.join(path.dirname(require.resolve('@playwright/test/package.json')), 'cli.js');
  const pwArgs = [playwrightCli, 'test', '--project=conformance', '--workers=1', '--config', path.join(PACKAGE_ROOT, 'playwright.config.ts')];
  if (parsed.grep) pwArgs.push('--grep', parsed.grep);
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, pwArgs, {
      cwd: PACKAGE_ROOT,
      env: childEnv({ [ENV_OUT]: out, [ENV_CONFIG]: configFile }),
      stdio: 'inherit',
    });
    child.on('exit', (c) => resolve(c ?? 1));
  });
  fs.rmSync(configFile, { force: true });

  let results: Results;
  try {
    results = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')) as Results;
  } catch {
    process.stderr.write(`conformance run: the run produced no results (Playwright exited with ${code})\n`);
    return 2;
  }
  if (results.run.outcome === 'aborted') {
    process.stderr.write(`conformance run: the run could not start: ${results.run.aborted}\n`);
    return 2;
  }
  // The verdict says what it rests on: what was tested of what applies to the module.
  const verdict = results.coverage ? verdictText(results.coverage) : results.run.outcome === 'passed' ? 'PASS (no MUST failure)' : 'FAIL';
  process.stdout.write(`\nconformance: ${verdict} (${path.relative(process.cwd(), path.join(out, 'conformance.html')) || 'conformance.html'})\n`);
  return results.run.outcome === 'passed' ? 0 : 1;
}
