/**
 * Whole runs of self-tests whose arguments and environment are fixed before the run (no module
 * of the test's own, no run deadline): rows of the shared batch (batch.ts), each test reading its
 * row's outcome as it would read its own `conformance run`'s. By spec: session.spec.ts,
 * evidence-complete.spec.ts, modes.spec.ts (the document alone), area.spec.ts, narrowed.spec.ts,
 * replay.spec.ts and replay-webhooks.spec.ts (the runs whose failures they replay).
 * The rows launch the compiled reference module (compiled-module.ts); the replay rows, the bundled configuration.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { GauntletRow } from './batch.ts';
import { compiledReferenceConfig, referenceConfigFile } from './compiled-module.ts';

/**
 * How long a test of these rows may wait for its row: the batch plays them first, but a whole
 * run at full load (7 processes on 2 cores) can take a minute and a half, after the rows before it.
 */
export const ROW_TEST_TIMEOUT_MS = 420_000;

/** The row of `rows` named `name`. */
export function rowNamed(rows: readonly GauntletRow[], name: string): GauntletRow {
  const row = rows.find((r) => r.name === name);
  if (!row) throw new Error(`no row ${name}`);
  return row;
}

export const TEN_FAULTS = [
  'delivery-payer-type-unknown', 'payment-invoice-type-unknown', 'mgbot-not-empty', 'url-malformed', 'tracking-unchunked',
  'calls-upload-unchunked', 'call-event-codes-not-strings', 'delivery-required-field-unknown', 'delivery-data-field-type-unknown', 'activity-reply-malformed',
];

/** The readiness signals a module may give (session.spec.ts): the name said in the title, the `readiness` setting. */
export const READINESS_SIGNALS = [
  ['a readiness URL', { url: '{moduleUrl}/ready' }],
  ['a line of its output', { stdout: 'ready for callbacks' }],
] as const;

export const SESSION_ROWS: GauntletRow[] = [
  {
    name: 'session-ten-faults',
    title: 'a module with ten failing checks is launched once, and every failure is named',
    args: () => ['--config', compiledReferenceConfig(), '--area', 'delivery,payment,telephony', '--runs', '30'],
    env: { FAULTS: TEN_FAULTS.join(',') },
  },
  {
    name: 'session-ready-late',
    title: 'a module not ready in the first moments: the session waits until it accepts callbacks, and no callback of a spec is refused',
    args: () => ['--config', referenceConfigFile({ readiness: { settleMs: 1000 } }, { compiled: true }), '--runs', '30'],
    env: { FAULTS: '', VARIATIONS: 'ready-late' },
  },
  ...READINESS_SIGNALS.map(([signal, readiness], i) => ({
    name: `session-readiness-${i}`,
    title: `callbacks wait for ${signal}: no callback is refused`,
    args: () => ['--config', referenceConfigFile({ readiness }, { compiled: true }), '--area', 'delivery,payment,telephony', '--runs', '30'],
    env: { FAULTS: '', VARIATIONS: 'ready-late' },
  })),
];

/** The bundled configuration (the compiled module), with the module's clientId taken from the suite's environment. */
function configWithClientId(): string {
  const file = compiledReferenceConfig();
  const config = JSON.parse(fs.readFileSync(file, 'utf8')) as { launch: { env: Record<string, string> } };
  config.launch.env.CLIENT_ID = '{env:CLIENT_ID}';
  fs.writeFileSync(file, JSON.stringify(config));
  return path.resolve(file);
}

/** The clientIds of the evidence runs: a long one, and one of 2 characters. */
export const LONG_CLIENT_ID = 'f00dcafe5e11a1b2c3d4e5f60718293a';
export const SHORT_CLIENT_ID = 'c7';

export const EVIDENCE_ROWS: GauntletRow[] = [
  { name: 'evidence-long-client-id', title: 'a whole run: every kept exchange in results.json once, and a long clientId nowhere in the output', args: () => ['--config', configWithClientId(), '--runs', '20'], env: { CLIENT_ID: LONG_CLIENT_ID } },
  { name: 'evidence-short-client-id', title: 'a whole run with a 2-character clientId: redacted in every clientId field, the rest of the report readable', args: () => ['--config', configWithClientId(), '--runs', '20'], env: { CLIENT_ID: SHORT_CLIENT_ID } },
];

const PROFILE_ONLY_TITLE = 'document alone: a profile-only constraint inside a document schema is dropped on its own; the document rules of that schema still fail';

export const DOCUMENT_ALONE_ROWS: GauntletRow[] = [
  { name: 'no-profile-full', title: 'document alone (--no-profile): every wire-profile check is skipped, none passes or fails', args: () => ['--config', compiledReferenceConfig(), '--no-profile', '--runs', '20'], env: { FAULTS: 'activity-reply-malformed' } },
  { name: 'no-profile-event-type', title: PROFILE_ONLY_TITLE, args: () => ['--config', compiledReferenceConfig(), '--no-profile', '--area', 'telephony', '--runs', '10'], env: { FAULTS: 'call-event-type-unknown' } },
  { name: 'no-profile-event-codes', title: PROFILE_ONLY_TITLE, args: () => ['--config', compiledReferenceConfig(), '--no-profile', '--area', 'telephony', '--runs', '10'], env: { FAULTS: 'call-event-codes-not-strings' } },
];

export const AREA_ROWS: GauntletRow[] = [
  { name: 'area-delivery', title: 'an --area run on a correct module: exit 0, the areas named, never CONFORMANT, the run-level rule applied', args: () => ['--config', compiledReferenceConfig(), '--area', 'delivery'], env: { FAULTS: '' } },
];

export const NARROWED_ROWS: GauntletRow[] = [
  { name: 'narrowed-grep-tracking', title: '--grep tracking on a correct module: exit 0, the selection and what it left out named, the run-level rule not failed', args: () => ['--config', compiledReferenceConfig(), '--grep', 'tracking'], env: { FAULTS: '' } },
];

/** The first runs of the replay tests (replay.spec.ts, replay-webhooks.spec.ts), on the bundled configuration: each row's saved failures are replayed by its test. */
export const REPLAY_FAULT = 'calculate-cost-as-text-over-10kg';
export const REPLAY_TITLES = {
  calculate: `a failing property saves its shrunk case; replay sends it again: still failing with ${REPLAY_FAULT}, holding without`,
  sequence: 'a failing sequence shrinks to the steps that break the rule (save, edit, get) and replays them in order: failing with get-after-edit-unknown, holding without',
  payment: 'a failing payment sequence shrinks to create, cancel and a payment, and replays them in order: failing with canceled-still-paid, holding without',
  bot: 'a failing bot event is saved and replayed on the bot\'s socket: failing with bot-answers-other-chat, holding without',
  seed: 'one seed, the same requests: two runs with --seed 5 --runs 20 send identical calculate bodies to the same paths',
  webhook: 'a failing webhook case is saved with its references as choices and replays on the chat the replay\'s transport opened: failing with webhook-message-sent-without-id, holding without (acts-on-references)',
} as const;

export const REPLAY_ROWS: GauntletRow[] = [
  { name: 'replay-calculate', title: REPLAY_TITLES.calculate, args: () => ['--grep', 'calculate', '--seed', '11'], env: { FAULTS: REPLAY_FAULT } },
  { name: 'replay-sequence', title: REPLAY_TITLES.sequence, args: () => ['--area', 'delivery', '--grep', 'sequences', '--seed', '7'], env: { FAULTS: 'get-after-edit-unknown' } },
  { name: 'replay-payment', title: REPLAY_TITLES.payment, args: () => ['--area', 'payment', '--grep', 'payment sequences', '--seed', '7'], env: { FAULTS: 'canceled-still-paid' } },
  { name: 'replay-bot', title: REPLAY_TITLES.bot, args: () => ['--area', 'chat', '--grep', 'chat bot', '--seed', '3', '--runs', '10'], env: { FAULTS: 'bot-answers-other-chat' } },
  { name: 'replay-seed-a', title: REPLAY_TITLES.seed, args: () => ['--grep', 'calculate', '--seed', '5', '--runs', '20'], env: { FAULTS: '' } },
  { name: 'replay-seed-b', title: REPLAY_TITLES.seed, args: () => ['--grep', 'calculate', '--seed', '5', '--runs', '20'], env: { FAULTS: '' } },
  { name: 'replay-webhook', title: REPLAY_TITLES.webhook, args: () => ['--area', 'chat', '--grep', 'transport webhooks.*generated', '--runs', '20', '--seed', '4'], env: { VARIATIONS: 'acts-on-references', FAULTS: 'webhook-message-sent-without-id' } },
];
