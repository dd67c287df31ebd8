/**
 * `conformance init [--kinds K1,K2] [--mode launch|remote] [--out FILE]`: asks nothing, writes a
 * commented configuration (JSON with `//` comments, read by the loader as it is: src/module/jsonc.ts)
 * for the given module kinds: every trigger of those kinds with what it starts, its parameters and
 * an example answer of its hook; the run's placeholders; in launch mode how the module is
 * started and when it is ready, in remote mode where it runs and how it registers. What only the
 * vendor knows is a blank (`"<FILL IN: ...>"`, src/module/config-blanks.ts): the file does not run
 * until each is filled, and the run names each one left (exit 2). An existing file is never
 * overwritten.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readOptions, type OptionSpec } from './options.ts';
import { kindsOption } from './kinds.ts';
import { MODULE_KINDS, type ModuleKind } from '../contract/kinds.ts';
import { ConfigError } from '../module/config-error.ts';
import { blank, blanksOf } from '../module/config-blanks.ts';
import { stripJsonComments } from '../module/jsonc.ts';
import { TRIGGERS, type TriggerName } from '../module/triggers.ts';

export const INIT_USAGE = `usage: conformance init [--kinds KINDS] [--mode launch|remote] [--out FILE]

Writes a commented configuration for your module, asking nothing:
  --kinds KINDS   the module kinds, comma-separated (${MODULE_KINDS.join(', ')}; default: all)
  --mode MODE     launch (default): the suite starts your module; remote: it runs elsewhere (staging)
  --out FILE      where to write it (default conformance.config.json); an existing file is not overwritten

Every trigger of those kinds is in it, explained, with an example answer of its hook. Replace each
"<FILL IN: ...>" with your own value: until then conformance run names each one left and exits 2.
`;

/** The triggers of each kind, in the order of TRIGGERS (src/module/triggers.ts); mgBot has none. */
export const KIND_TRIGGERS: Readonly<Record<ModuleKind, readonly TriggerName[]>> = {
  telephony: ['telephony.callsUpload', 'telephony.callEvent', 'telephony.managerLookup'],
  delivery: ['delivery.tracking'],
  payment: ['payment.notify'],
  mgTransport: ['transport.templateVerdict', 'transport.inboundMessage', 'transport.templateReport'],
  mgBot: [],
};

/**
 * What init writes of each trigger: an example of the request the suite sends (no `body`
 * declared: the parameters as a JSON object) and of the answer of a hook that did what it was
 * asked. `registration.repeat` is not written: no test fires it.
 */
const EXAMPLES: Readonly<Partial<Record<TriggerName, { request: unknown; answer: string }>>> = {
  'delivery.tracking': { request: { count: 120, deliveryIds: ['4411', '4412', '...'] }, answer: 'HTTP 200 {"success": true} once the statuses are pushed' },
  'telephony.callsUpload': { request: { count: 60, externalIds: ['call-1', 'call-2', '...'] }, answer: 'HTTP 200 {"success": true} once the calls are uploaded' },
  'telephony.callEvent': { request: { phone: '+15550100', type: 'in', codes: ['101'], externalPhone: '+15550199' }, answer: 'HTTP 200 {"success": true} once the event is reported' },
  'telephony.managerLookup': { request: { phone: '+15550100' }, answer: 'HTTP 200 {"success": true} whether the system named a manager or not (an answer of 5xx, or none, fails the check that the module copes)' },
  'payment.notify': { request: { paymentId: 'pay-1', event: 'held' }, answer: 'HTTP 200 {"success": true} once the module acted on the notice (reported it, or chose not to for an invoice the system changed or withdrew)' },
  'transport.templateVerdict': { request: { channelId: 1, code: 'order_ready', verdict: 'rejected', reason: 'wording' }, answer: 'HTTP 200 {"success": true} once the verdict is reported' },
  'transport.inboundMessage': { request: { channelId: 1, text: 'Is my order on its way?', count: 1 }, answer: 'HTTP 200 {"success": true} (it may list the messages\' external_ids)' },
  'transport.templateReport': { request: { channelId: 1, code: 'promo_1', template: '{"name":"promo","type":"text","body":"Hello","verification_status":"approved"}' }, answer: 'HTTP 200 {"success": true} once the template is reported' },
  'registration.connect': { request: { systemUrl: 'http://127.0.0.1:7100', apiKey: '(the run\'s key)' }, answer: 'HTTP 200 {"success": true} once the module registered with that system (or at once: the run waits for the registration)' },
};

interface InitArgs {
  kinds?: ModuleKind[];
  mode: 'launch' | 'remote';
  out: string;
}

const OPTIONS: Array<OptionSpec<InitArgs>> = [
  { name: '--kinds', value: 'KINDS', set: (o, v) => (o.kinds = kindsOption(v, o.kinds, '--kinds')) },
  {
    name: '--mode',
    value: 'MODE',
    set: (o, v) => {
      if (v !== 'launch' && v !== 'remote') throw new ConfigError(`--mode takes launch or remote, not ${JSON.stringify(v)}`);
      o.mode = v;
    },
  },
  { name: '--out', value: 'FILE', set: (o, v) => (o.out = v) },
];

/** Reads the arguments of `conformance init`. Throws ConfigError with a one-line reason. */
export function parseInitArgs(args: string[]): InitArgs {
  return readOptions<InitArgs>(args, OPTIONS, { mode: 'launch', out: 'conformance.config.json' }, 'init', (a) => {
    throw new ConfigError(`unexpected argument ${JSON.stringify(a)}; see conformance init --help`);
  });
}

/** One member of an object as written: its comment lines, and either a value or members of its own; `off`: written commented out. */
interface Member {
  key: string;
  value?: unknown;
  members?: Member[];
  note?: string[];
  off?: boolean;
}

/** Lines of at most `width` characters, words kept whole. */
function wrap(text: string, width = 96): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** The members of an object, indented, with commas where JSON needs them (a member written commented out takes none of its own). */
function renderMembers(given: readonly Member[], indent: number): string[] {
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  // A member written commented out comes before the last one written, so that uncommenting it (its comma included) keeps the JSON whole.
  const last = given.findLastIndex((m) => !m.off);
  const members = last < 0 ? given : [...given.slice(0, last), ...given.slice(last + 1), given[last]!];
  members.forEach((m, i) => {
    for (const n of m.note ?? []) lines.push(...wrap(n, 100 - indent).map((l) => `${pad}// ${l}`));
    const comma = members.slice(i + 1).some((x) => !x.off) ? ',' : '';
    if (m.off) lines.push(`${pad}// ${JSON.stringify(m.key)}: ${JSON.stringify(m.value)},`);
    else if (m.members) lines.push(`${pad}${JSON.stringify(m.key)}: {`, ...renderMembers(m.members, indent + 2), `${pad}}${comma}`);
    else lines.push(`${pad}${JSON.stringify(m.key)}: ${JSON.stringify(m.value)}${comma}`);
  });
  return lines;
}

/** JSON on one line, spaced as people write it. */
const spaced = (value: unknown): string => JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ').replace(/\[ /g, '[').replace(/ \]/g, ']');

/** A trigger as written: what it starts, its parameters, an example request and answer, and a blank for its hook's URL. */
function triggerMember(name: TriggerName): Member {
  const example = EXAMPLES[name]!;
  const [what, params] = TRIGGERS[name].split(/; params: |; no params/);
  return {
    key: name,
    note: [
      `${name}: ${what}.`,
      ...(params ? [`Parameters: ${params}.`] : []),
      `Request (no "body" declared): ${spaced(example.request)}`,
      `Example answer: ${example.answer}.`,
    ],
    members: [
      { key: 'method', value: 'POST' },
      { key: 'url', value: blank(`the URL of your module's hook for ${name}, e.g. {moduleUrl}/test-hooks/${name}`) },
    ],
  };
}

const TRIGGERS_NOTE = [
  'Triggers: HTTP requests that make your module start a flow of its own (README, Triggers). Each names your hook; the suite sends it with the parameters as a JSON object (or a "body" of your own with {parameter} placeholders; "headers" too).',
  "The hook answers 2xx (e.g. {\"success\": true}) when the flow started. The suite waits for that answer up to the trigger's timeoutMs (default callbacks.timeoutMs, 10000 ms), then for the calls the flow makes (the first within flowTimeoutMs, default 10000 ms): the hook may act first and answer after, or answer at once and act after.",
  'An answer of 4xx or 5xx, or {"success": false, "errorMsg": "why"}, says the flow did not start: its checks are skipped with that reason. A trigger you delete (no hook) leaves its checks skipped ("needs trigger X"), never passed.',
];

/** The placeholders the run fills in strings, said once at the top. */
const PLACEHOLDERS_NOTE =
  "Placeholders the run fills in strings: {systemUrl} (the simulated system), {gatewayUrl} (the simulated chat gateway), {apiKey} (the run's system API key), {port} (a free port for your module; launch mode), {moduleUrl} (your module's address: http://127.0.0.1:{port} in launch mode, remote.moduleUrl in remote mode), {code} and {clientId} (from its registration; in triggers and readiness.url), {env:NAME} (the suite's environment), and in a trigger its parameters ({count}, ...).";

/** The configuration's members for the kinds and the mode. */
function configMembers(kinds: readonly ModuleKind[], mode: 'launch' | 'remote'): Member[] {
  const chat = kinds.includes('mgTransport') || kinds.includes('mgBot');
  const triggers: Member[] = [...(mode === 'remote' ? [triggerMember('registration.connect')] : []), ...kinds.flatMap((k) => KIND_TRIGGERS[k].map(triggerMember))];
  const out: Member[] = [{ key: 'mode', value: mode, note: [mode === 'launch' ? 'launch: the suite starts your module and waits for it to register with the simulated system.' : 'remote: your module runs elsewhere (staging); the suite plays the system and the gateway toward it.'] }];
  if (mode === 'launch') {
    out.push({
      key: 'launch',
      note: ['How the suite starts your module. It runs in its own process group and is stopped with it at the end of the run.'],
      members: [
        { key: 'command', value: blank('the program that starts your module, e.g. node, java, php, ./bin/server') },
        { key: 'args', value: [blank('its arguments, e.g. dist/server.js (an empty list for none)')] },
        { key: 'cwd', value: blank('the folder it starts in, relative to this file, e.g. . (the folder of this file)') },
        {
          key: 'env',
          note: [
            'The variables your module reads (rename them to yours). It gets these and only PATH, HOME, the locale and the temporary folder of the suite\'s environment ("inheritEnv": true for all of it).' + (chat ? ' A chat module needs no gateway address: it comes in the answer to its registration.' : ''),
          ],
          members: Object.entries({ SYSTEM_URL: '{systemUrl}', API_KEY: '{apiKey}', PORT: '{port}', PUBLIC_URL: '{moduleUrl}' }).map(([key, value]) => ({ key, value })),
        },
        { key: 'registrationTimeoutMs', value: 30000, note: ['How long the suite waits for its registration (POST /api/v5/integration-modules/{code}/edit).'] },
      ],
    });
  } else {
    out.push({
      key: 'remote',
      members: [
        { key: 'moduleUrl', value: blank('the address your module serves, e.g. https://staging.example.com') },
        {
          key: 'registration',
          value: 'registration.json',
          off: true,
          note: ["Instead of the trigger registration.connect below: your module's integrationModule JSON, or a file holding it (relative to this file)."],
        },
        { key: 'registrationTimeoutMs', value: 60000, note: ['How long the suite waits for its registration.'] },
      ],
    });
    const simulator = (key: 'system' | 'gateway', port: number, what: string): Member => ({
      key,
      note: [`Where the simulated ${what} listens, and the address your module is told to use for it when that differs (publicUrl).`],
      members: [
        { key: 'bind', value: '127.0.0.1' },
        { key: 'port', value: port },
        { key: 'publicUrl', value: `https://conformance-${key}.example.com`, off: true },
      ],
    });
    out.push(simulator('system', 7100, 'system'));
    if (chat) out.push(simulator('gateway', 7200, 'chat gateway'));
    out.push({ key: 'apiKey', value: 'the key your staging module holds', off: true, note: ['Without registration.connect: the system API key your module already uses (else each run draws one).'] });
  }
  out.push({
    key: 'readiness',
    note: ['When your module is ready for callbacks after its registration (default: 1000 ms after it).'],
    members: [
      { key: 'settleMs', value: 1000 },
      { key: 'url', value: '{moduleUrl}/health', off: true, note: ['Or polled with GET until it answers 2xx:'] },
      ...(mode === 'launch' ? [{ key: 'stdout', value: 'listening on', off: true, note: ['Or a regular expression (not plain text) that a line of its output matches:'] }] : []),
      { key: 'timeoutMs', value: 30000, off: true, note: ['The longest wait for that signal:'] },
    ],
  });
  if (triggers.length > 0) out.push({ key: 'triggers', note: TRIGGERS_NOTE, members: triggers });
  if (kinds.includes('telephony')) {
    out.push({
      key: 'telephony',
      note: ['The method the system calls your makeCallUrl and changeUserStatusUrl with: GET (the parameters in the query) or POST (a form body).'],
      members: [
        { key: 'makeCallMethod', value: 'GET' },
        { key: 'changeUserStatusMethod', value: 'GET' },
      ],
    });
  }
  out.push({ key: 'flowTimeoutMs', value: 10000, note: ["How long to wait for your module's call after a trigger, in milliseconds."] });
  out.push({ key: 'tls', value: true, off: true, note: ['Serve the simulators over HTTPS; your module trusts the CA certificate {caFile} (README, HTTPS simulators).'] });
  return out;
}

/** The text of the configuration `conformance init` writes for these kinds and mode (`file`: its name, for the run line). */
export function initConfigText(kinds: readonly ModuleKind[], mode: 'launch' | 'remote', file = 'conformance.config.json'): string {
  const header = [
    `module-conformance configuration for ${kinds.join(', ')} (${mode} mode), written by conformance init.`,
    'JSON with // comments: the suite reads it as it is (schema: schemas/suite/config.json of the package; README, The configuration file).',
    'Replace every "<FILL IN: ...>" with your own value: until then the run stops (exit 2) and names each one left.',
    `Then: npx conformance run --config ${file}    (one kind: --kind ${kinds[0]})`,
    PLACEHOLDERS_NOTE,
    ...(kinds.includes('mgBot') ? ['mgBot has no trigger: the suite drives a bot through the gateway (WebSocket events, the Bot API).'] : []),
  ];
  return `${header.flatMap((l) => wrap(l, 100)).map((l) => `// ${l}`).join('\n')}\n{\n${renderMembers(configMembers(kinds, mode), 2).join('\n')}\n}\n`;
}

export async function initCommand(args: string[]): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    process.stdout.write(INIT_USAGE);
    return 0;
  }
  let parsed: InitArgs;
  try {
    parsed = parseInitArgs(args);
  } catch (e) {
    process.stderr.write(`conformance init: ${(e as Error).message}\n`);
    return 2;
  }
  const kinds = parsed.kinds ?? [...MODULE_KINDS];
  const file = path.resolve(parsed.out);
  const shown = path.relative(process.cwd(), file) || file;
  const text = initConfigText(kinds, parsed.mode, path.basename(file));
  try {
    // `wx`: an existing file, even one made meanwhile, is left as it is.
    fs.writeFileSync(file, text, { flag: 'wx' });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    process.stderr.write(`conformance init: ${code === 'EEXIST' ? `${shown} exists; not overwritten (remove it, or give another --out FILE)` : `cannot write ${shown}: ${(e as Error).message}`}\n`);
    return 2;
  }
  const blanks = blanksOf(JSON.parse(stripJsonComments(text)) as unknown).length;
  process.stdout.write(`conformance init: wrote ${shown} (${parsed.mode} mode; ${kinds.join(', ')}): fill in its ${blanks} "<FILL IN: ...>" values, then run: npx conformance run --config ${shown}\n`);
  return 0;
}
