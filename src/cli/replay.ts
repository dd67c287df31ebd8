/**
 * `conformance replay FILE [--config FILE | --module-url URL] [options]`: sends a saved failure's
 * shrunk request (`failures/<check>.<property>.json` of a run's output folder) to the module
 * again, exactly as saved, judges the reply with the same check, requirement ids and severity as
 * the run did (the property registry, `src/properties/registry.ts`), and prints the verdict.
 * Exit 0: the check holds on it now; 1: it still fails; 2: a bad file or configuration, or a
 * module that could not be reached (one-line reason).
 */
import fs from 'node:fs';
import path from 'node:path';
import { apply } from '../checks/apply.ts';
import type { Verdict } from '../checks/check.ts';
import { isProfile } from '../contract/catalogue.ts';
import { CALLBACKS, type CallbackName } from '../callbacks/table.ts';
import { NoCallbackAddress } from '../callbacks/send.ts';
import { readOptions, sessionOptions, type OptionSpec } from './options.ts';
import { loadConfig, type ConfigFlags, type ResolvedConfig } from '../module/config.ts';
import { ConfigError } from '../module/config-error.ts';
import { findPropertyCheck } from '../properties/registry.ts';
import type { PropertyCheck } from '../properties/run.ts';
import type { CaseOutcome, GeneratedCase, SavedFailure } from '../checks/case.ts';
import { runSequence, sessionDriver } from '../properties/delivery-sequences.ts';
import { runPaymentSequence, sessionPaymentDriver } from '../properties/payment-sequences.ts';
import { runTemplateSequence, sessionTemplateDriver } from '../properties/template-sequences.ts';
import { awaitChannels } from '../generators/chat/context.ts';
import { isWebhookCase, runWebhookCase, sessionWebhookDriver } from '../properties/chat-webhooks.ts';
import { isClientIdCase, runClientIdProbe } from '../properties/client-id-probes.ts';
import { BOT_FRAME_CASE, runBotEvent } from '../properties/chat-bot.ts';
import { seedBotChats } from '../generators/chat/bot-events.ts';
import { ENV_OUT } from '../run/environment.ts';
import { RunSession } from '../run/session.ts';
import { oneLine } from '../report/console-reporter.ts';
import { INTERNAL } from '../run/output-layout.ts';

export const REPLAY_USAGE = `usage: conformance replay FILE [--config FILE | --module-url URL] [options]

Sends the request a failing property saved (FILE: failures/<check>.<property>.json in a run's
output folder) to the module again, exactly as saved, judges the reply with the same check,
requirement ids and severity, and prints the verdict. The module is launched (or reached) as
by conformance run, with the same configuration.
Exit 0: the check holds now; 1: it still fails; 2: a bad file or configuration, or the run
could not start.

  --config FILE            run configuration (default: the bundled reference module)
  --module-url URL         remote mode: the module runs at URL
  --registration FILE      remote mode: the module's integrationModule JSON
  --bind ADDR              address the simulators listen on (default 127.0.0.1)
  --system-public-url URL  address the module uses to reach the system simulator
  --gateway-public-url URL address the module uses to reach the gateway simulator
  --no-profile             the document alone: a wire-profile (WIRE-) check is skipped
  --out DIR                where the replay's evidence goes (default: reports/replay):
                           replay.json (the exchange and the result) and the module's output

An option's value may also follow an equals sign (--out=DIR).
`;

export interface ReplayArgs {
  file: string;
  config?: string;
  out: string;
  flags: ConfigFlags;
}

const OPTIONS: Array<OptionSpec<ReplayArgs>> = [
  ...sessionOptions<ReplayArgs>(),
];

/** Reads the arguments of `conformance replay`. Throws ConfigError with a one-line reason. */
export function parseReplayArgs(args: string[]): ReplayArgs {
  const files: string[] = [];
  const out = readOptions<ReplayArgs>(args, OPTIONS, { file: '', out: path.join('reports', 'replay'), flags: {} }, 'replay', (a) => files.push(a));
  if (files.length === 0) throw new ConfigError('which failure? conformance replay FILE (a failures/<check>.<property>.json of a run)');
  if (files.length > 1) throw new ConfigError(`one failure at a time, not ${files.length} (${files.map((f) => JSON.stringify(f)).join(', ')})`);
  if (out.config !== undefined && out.flags.moduleUrl !== undefined) throw new ConfigError('--config or --module-url, not both');
  out.file = files[0]!;
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** Reads a saved failure; throws ConfigError naming what is wrong with it. */
export function readSavedFailure(file: string): SavedFailure {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read ${file}: ${(e as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${file} is not JSON: ${(e as Error).message}`);
  }
  const problems: string[] = [];
  if (!isObject(data)) throw new ConfigError(`${file} is not a saved failure (a JSON object with check, property, case...)`);
  if (typeof data.check !== 'string' || data.check === '') problems.push('check: a check name');
  if (typeof data.property !== 'string') problems.push('property: a property name');
  if (!isStrings(data.requirements)) problems.push('requirements: a list of requirement ids');
  if (data.severity !== 'MUST' && data.severity !== 'SHOULD') problems.push('severity: MUST or SHOULD');
  const c = data.case;
  if (!isObject(c)) problems.push('case: the generated case {callback, payload, intent}');
  else {
    const botFrame = c.callback === BOT_FRAME_CASE;
    if (typeof c.callback !== 'string' || !(c.callback in CALLBACKS || botFrame)) problems.push(`case.callback: a callback of the suite (${Object.keys(CALLBACKS).join(', ')}) or ${BOT_FRAME_CASE}`);
    if (!('payload' in c)) problems.push('case.payload: the request payload');
    const intent = c.intent;
    // An open case (no sentence makes it wrong input: a past shipment date, a negative weight, an unlisted extension code) is saved when an error rule failed on it.
    const open = isObject(intent) && intent.kind === 'open' && (botFrame || typeof intent.why === 'string');
    // A clientId probe (`client-id-probes.ts`): sent again without a clientId, with its unknown one, then with the module's.
    const probe = isObject(intent) && intent.kind === 'refused' && isClientIdCase(c as unknown as GeneratedCase);
    if (!isObject(intent) || (intent.kind !== 'valid' && !(intent.kind === 'wrong' && typeof intent.field === 'string' && typeof intent.why === 'string') && intent.kind !== 'sequence' && !open && !probe)) {
      problems.push('case.intent: {"kind": "valid"}, {"kind": "wrong", "field", "why"}, {"kind": "open", "why"}, {"kind": "sequence"} or a clientId probe {"kind": "refused", ...}');
    }
    if (isObject(intent) && intent.kind === 'sequence' && !(isObject(c.payload) && Array.isArray(c.payload.steps) && c.payload.steps.length > 0)) problems.push('case.payload: a sequence\'s {"steps": [...]}');
  }
  if (problems.length > 0) throw new ConfigError(`${file} is not a saved failure: ${problems.join('; ')}`);
  return data as unknown as SavedFailure;
}

/** The property check a failure names, as its property applies it; throws ConfigError when the suite has none of that name. */
export function checkOf(failure: SavedFailure): PropertyCheck {
  const found = findPropertyCheck(failure.property, failure.check);
  if (found) return found;
  throw new ConfigError(`no property of the suite applies a check named ${failure.check}: a replayed case cannot be judged`);
}

/** The mark of a verdict's outcome, as the replay line prints it. */
const WORD: Record<Verdict['outcome'], string> = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP', notApplicable: 'N/A' };

/** The replay's verdict in one line: `replay: <check> [ids] PASS|FAIL  Received: ...; Expected: ...`. */
export function replayLine(check: string, requirements: readonly string[], verdict: Verdict): string {
  const why =
    verdict.outcome === 'fail'
      ? `Received: ${oneLine(verdict.received ?? '(nothing)', 300)}; Expected: ${oneLine(verdict.expected ?? '', 300)}`
      : verdict.detail
        ? `${verdict.outcome === 'pass' ? 'Held' : verdict.outcome === 'skip' ? 'Skipped' : 'Not applicable'}: ${oneLine(verdict.detail, 300)}`
        : '';
  return `replay: ${check} [${requirements.join(', ') || 'suite rule'}] ${WORD[verdict.outcome]}${why ? `  ${why}` : ''}`;
}

/**
 * A frame on the bot's socket replays once the bot is connected, in the chats the suite seeds in
 * a fresh gateway as the run did (the same ids: the frame names its chat).
 */
async function replayBotEvent(session: RunSession, c: GeneratedCase): Promise<CaseOutcome> {
  await session.gateway.waitForBotConnection(session.config.flowTimeoutMs);
  seedBotChats(session.gateway);
  return runBotEvent(session, c, 'replay', { unanswered: false });
}

/** A template sequence replays once the transport has activated its channels (it does so on its own after registering). */
async function templateReplayDriver(session: RunSession): Promise<ReturnType<typeof sessionTemplateDriver>> {
  await awaitChannels(session, session.config.flowTimeoutMs);
  return sessionTemplateDriver(session);
}

export async function replayCommand(args: string[]): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    process.stdout.write(REPLAY_USAGE);
    return 0;
  }
  let parsed: ReplayArgs;
  let failure: SavedFailure;
  let pc: PropertyCheck;
  let config: ResolvedConfig;
  try {
    parsed = parseReplayArgs(args);
    failure = readSavedFailure(parsed.file);
    pc = checkOf(failure);
    config = loadConfig(parsed.config, parsed.flags);
  } catch (e) {
    process.stderr.write(`conformance replay: ${(e as Error).message}\n`);
    return 2;
  }
  const app = { requirements: failure.requirements, severity: failure.severity };
  // The session's files (the module's output, how it was stopped) go to the replay's folder.
  const out = path.resolve(parsed.out);
  fs.mkdirSync(out, { recursive: true });
  for (const f of ['replay.json', 'module.stdout.log', 'module.stderr.log', INTERNAL]) fs.rmSync(path.join(out, f), { recursive: true, force: true });
  process.env[ENV_OUT] = out;
  process.stdout.write(`replay: ${oneLine(failure.check)} on the shrunk case of "${oneLine(failure.property)}" (seed ${Number(failure.seed)}, path ${oneLine(String(failure.path ?? ''), 80)}), ${path.relative(process.cwd(), path.resolve(parsed.file)) || parsed.file}\n`);

  let session: RunSession;
  try {
    session = await RunSession.start(config, `r${process.pid}`);
  } catch (e) {
    process.stderr.write(`conformance replay: the run could not start: ${(e as Error).message}\n`);
    return 2;
  }
  try {
    if (!session.registration) {
      process.stderr.write(`conformance replay: ${session.notRegistered ?? 'the module is not registered'}\n`);
      return 2;
    }
    const clientId = session.clientId();
    if (clientId === undefined) {
      process.stderr.write('conformance replay: the registration gives no clientId to call the module with\n');
      return 2;
    }
    const callback = failure.case.callback as CallbackName;
    let outcome: CaseOutcome;
    try {
      // A sequence runs its steps again, in order, on deliveries (or invoices) of its own; any other case is one request.
      outcome =
        callback === BOT_FRAME_CASE
          ? await replayBotEvent(session, failure.case)
          : isClientIdCase(failure.case)
          ? // A clientId probe: sent again without a clientId, with the unknown one, then with the module's.
            await runClientIdProbe({ send: (cb, payload, id, label, probe, url) => session.send(cb, payload, { clientId: id, label, ...(probe ? { probe: true } : {}), ...(url ? { url } : {}) }), clientId, module: session.registration.module, profile: config.profile }, failure.case, 'replay')
          : failure.case.intent.kind === 'sequence'
          ? isWebhookCase(failure.case)
            ? await runWebhookCase(sessionWebhookDriver(session, Number(failure.seed)), failure.case, 'replay')
            : callback.startsWith('payment.')
            ? await runPaymentSequence(sessionPaymentDriver(session, Number(failure.seed)), failure.case, 'replay')
            : callback.startsWith('transport.template_')
              ? await runTemplateSequence(await templateReplayDriver(session), failure.case, 'replay')
              : await runSequence(sessionDriver(session, Number(failure.seed)), failure.case, 'replay')
          : { case: failure.case, reply: await session.send(callback, failure.case.payload, { clientId, label: 'replay' }), module: session.registration.module, profile: config.profile };
    } catch (e) {
      if (!(e instanceof NoCallbackAddress)) throw e;
      process.stderr.write(`conformance replay: the module cannot be sent ${callback}: ${e.message}\n`);
      return 2;
    }
    const reply = outcome.reply;
    // As the run judged it: a profile check is skipped by the document alone; a check that throws fails.
    const profileOff = !config.profile && app.requirements.length > 0 && app.requirements.every(isProfile);
    let verdict: Verdict;
    if (profileOff) verdict = { outcome: 'skip', detail: 'profile checks are off (the run uses the document alone)' };
    else {
      try {
        verdict = await pc.check.run(outcome);
      } catch (e) {
        verdict = { outcome: 'fail', received: `the check could not run: ${(e as Error).message}`, expected: 'a module reply the check can read' };
      }
    }
    const result = await apply({ name: pc.check.name, checks: pc.check.checks, run: () => verdict }, undefined as never, app, {
      profile: config.profile,
      exchange: (id) => session.log.get(id),
      spec: 'replay',
    });
    const exchange = session.log.forReport(reply.exchange);
    fs.writeFileSync(
      path.join(out, 'replay.json'),
      `${JSON.stringify({ file: path.resolve(parsed.file), check: failure.check, property: failure.property, seed: failure.seed, path: failure.path, result, exchange }, null, 2)}\n`,
    );
    process.stdout.write(`${replayLine(failure.check, failure.requirements, verdict)}\n`);
    return verdict.outcome === 'fail' ? 1 : 0;
  } finally {
    await session.stop();
  }
}
