/**
 * The engine against a bare loop, for one property: `calculate` (valid generated requests) or
 * `sequences` (the delivery sequences: save, edit, get, delete, shipment steps, refused calls).
 *
 * 1. A session launches the reference module; the property runner (generate, send, record the
 *    evidence, judge every check) runs `--runs` cases, once per `--lanes` value (the first one is
 *    the reference), and every request it sends to the module (method, address, headers, body) is
 *    captured during the first pass.
 * 2. A second session launches a fresh module (the same state as the first had before its first
 *    pass: its ids are counters), and a bare undici loop sends the captured requests, one after
 *    the other, over one connection (address and clientId of the new module put in), reading
 *    each body; it counts how many answers have the status the engine got. A third fresh module
 *    gets them again with a new connection for each request, as the engine's client sends them.
 *
 * Prints one JSON line (cases, calls, times, rates, ratio, peak memory of this process, the
 * module's left out) for `bench/run.ts`:
 *
 *   node --import tsx bench/engine.ts --property calculate|sequences [--runs 1000] [--seed 1] [--lanes 1,4]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { loadConfig } from '../src/module/config.ts';
import { RunSession } from '../src/run/session.ts';
import { Conformance } from '../src/run/conformance.ts';
import { runProperty, type PropertySpec } from '../src/properties/run.ts';
import { validCalculate } from '../src/generators/delivery/calculate.ts';
import { deliveryContextOf } from '../src/generators/delivery/context.ts';
import { propertyChecks } from '../src/properties/registry.ts';
import { CALCULATE_VALID, SEQUENCES } from '../src/checks/delivery/applications.ts';
import { saveContextOf } from '../src/properties/delivery-save-context.ts';
import { deliverySequences, runSequence, sessionDriver } from '../src/properties/delivery-sequences.ts';

const { values } = parseArgs({
  options: {
    property: { type: 'string', default: 'calculate' },
    runs: { type: 'string' },
    seed: { type: 'string', default: '1' },
    lanes: { type: 'string', default: '1' },
  },
});
const property = values.property === 'sequences' ? 'sequences' : 'calculate';
const runs = Number(values.runs ?? (property === 'calculate' ? 1000 : 100));
const seed = Number(values.seed);
const lanesList = values.lanes.split(',').map((l) => Math.max(1, Number(l)));

interface Captured {
  method: string;
  url: string;
  body: string | undefined;
  headers: Record<string, string>;
  status: number | undefined;
}

/** A session of its own (own output folder), the property's generation settings. */
async function withSession<T>(name: string, use: (s: RunSession) => Promise<T>): Promise<T> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), `bench-engine-${name}-`));
  process.env.CONFORMANCE_OUT = out;
  const config = loadConfig(undefined);
  const session = await RunSession.start({ ...config, generation: { ...config.generation, seed, runs, timeLimitMs: 3_600_000 } }, `bench-${name}`);
  try {
    await new Promise((r) => setTimeout(r, 300));
    return await use(session);
  } finally {
    await session.stop();
    fs.rmSync(out, { recursive: true, force: true });
  }
}

/** The property as its spec runs it (specs/delivery/calculate.spec.ts, specs/delivery/sequences.spec.ts). */
async function specOf(session: RunSession): Promise<PropertySpec> {
  if (property === 'calculate') {
    return {
      name: CALCULATE_VALID,
      id: 'bench',
      arbitrary: validCalculate(deliveryContextOf(session)),
      checks: propertyChecks(CALCULATE_VALID, session.config.profile),
      independent: true,
      exec: async (c, caseId) => {
        const reply = await session.send('delivery.calculate', c.payload, { clientId: session.clientId(), case: caseId });
        return { case: c, reply, module: session.registration!.module, profile: session.config.profile };
      },
    };
  }
  const ctx = await saveContextOf(session, seed, true);
  const driver = sessionDriver(session, seed);
  return { name: SEQUENCES, id: 'bench', arbitrary: deliverySequences(ctx, driver.declares), checks: propertyChecks(SEQUENCES, session.config.profile), independent: true, exec: (c, caseId) => runSequence(driver, c, caseId) };
}

const memory = (): number => Math.round(process.resourceUsage().maxRSS / 1024);

// 1. The engine, once per lanes value; the first pass's requests captured.
const captured: Captured[] = [];
const engine: Array<{ lanes: number; ms: number; casesPerSecond: number; callsPerSecond: number; failedChecks: string[] }> = [];
let calls = 0;
const first = await withSession('engine', async (session) => {
  const spec = await specOf(session);
  const conformance = new Conformance(session, { spec: 'bench', annotate: () => undefined, write: async () => undefined });
  const client = session.client;
  const send = client.send.bind(client);
  let capturing = true;
  let sent = 0;
  client.send = async (method, url, body, headers, options) => {
    sent += 1;
    const reply = await send(method, url, body, headers, options);
    if (capturing) captured.push({ method, url, body, headers, status: reply.status });
    return reply;
  };
  for (const lanes of lanesList) {
    sent = 0;
    const t0 = performance.now();
    const results = await runProperty(conformance, spec, { ...session.config.generation, seed, runs, timeLimitMs: 3_600_000, lanes });
    const ms = performance.now() - t0;
    capturing = false;

    engine.push({ lanes, ms: Math.round(ms), casesPerSecond: Math.round(runs / (ms / 1000)), callsPerSecond: Math.round(sent / (ms / 1000)), failedChecks: results.filter((r) => r.status === 'failed').map((r) => r.check) });
  }
  return { base: session.baseUrl() ?? '', clientId: session.clientId() ?? '' };
});

// 2. The bare loop: the captured requests, to a fresh module, one after the other; over one
// kept-alive connection, then (another fresh module) a new connection per request, as the
// engine's callback client does (undici `pipelining: 0`, src/client/callback-client.ts).
async function replay(name: string, agentOptions: Agent.Options) {
  return withSession(name, async (session) => {
    const base = session.baseUrl() ?? '';
    const clientId = session.clientId() ?? '';
    const swap = (s: string): string => s.split(first.base).join(base).split(first.clientId).join(clientId);
    const agent = new Agent(agentOptions);
    let same = 0;
    const t0 = performance.now();
    for (const c of captured) {
      const res = await request(swap(c.url), { method: c.method as 'GET' | 'POST', headers: Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k, swap(v)])), body: c.body === undefined ? null : swap(c.body), dispatcher: agent });
      await res.body.arrayBuffer();
      if (res.statusCode === c.status) same += 1;
    }
    const ms = performance.now() - t0;
    await agent.close();
    return { ms: Math.round(ms), calls: captured.length, sameStatus: same, casesPerSecond: Math.round(runs / (ms / 1000)), callsPerSecond: Math.round(captured.length / (ms / 1000)) };
  });
}
const bare = await replay('bare', { connections: 1 });
const bareNewConnections = await replay('bare-new-connections', { connections: 1, pipelining: 0 });

const reference = engine[0]!;
calls = captured.length;
process.stdout.write(
  `${JSON.stringify({
    property,
    runs,
    seed,
    calls,
    engine,
    bare,
    bareNewConnections,
    // The engine's rate as a share of the bare loop's, one lane (the bare loop has one request in flight).
    ratio: Number((bare.ms / reference.ms).toFixed(2)),
    peakRssMB: memory(),
  })}\n`,
);
