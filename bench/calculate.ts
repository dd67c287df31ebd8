/**
 * The engine against a bare loop: the same generated `calculate` requests sent to the reference
 * module (launched once) by the property runner (generate, send, record evidence, judge every
 * check) and by a bare undici loop (send, read the body). Prints both rates and their ratio, and
 * writes `reports/bench-calculate.json`.
 *
 *   npm run bench:calculate [-- --runs 1000 --seed 1]
 */
import fs from 'node:fs';
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
import { CALCULATE_VALID } from '../src/checks/delivery/applications.ts';
import { callbackUrl } from '../src/callbacks/send.ts';
import { CALLBACKS } from '../src/callbacks/table.ts';
import { encodeActionForm, FORM_CONTENT_TYPE } from '../src/wire/forms.ts';
import { PACKAGE_ROOT } from '../src/contract/paths.ts';
import type { GeneratedCase } from '../src/checks/case.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1000' }, seed: { type: 'string', default: '1' } } });
const runs = Number(values.runs);
const seed = Number(values.seed);

process.env.CONFORMANCE_OUT ??= path.join(PACKAGE_ROOT, 'reports', 'bench-calculate');
const config = loadConfig(undefined);
const session = await RunSession.start({ ...config, generation: { seed, runs, timeLimitMs: 3_600_000, lanes: 1 } }, 'bench');
try {
  await new Promise((r) => setTimeout(r, 1500)); // the module's settle period
  const sent: GeneratedCase[] = [];
  const conformance = new Conformance(session, { spec: 'bench', annotate: () => undefined, write: async () => undefined });
  const spec: PropertySpec = {
    name: 'delivery.calculate: valid requests',
    id: 'bench',
    arbitrary: validCalculate(deliveryContextOf(session)),
    checks: propertyChecks(CALCULATE_VALID, session.config.profile),
    exec: async (c, caseId) => {
      sent.push(c);
      const reply = await session.send('delivery.calculate', c.payload, { clientId: session.clientId(), case: caseId });
      return { case: c, reply, module: session.registration!.module, profile: session.config.profile };
    },
  };
  const t0 = performance.now();
  const results = await runProperty(conformance, spec, { seed, runs, timeLimitMs: 3_600_000 });
  const engineMs = performance.now() - t0;
  const failed = results.filter((r) => r.status === 'failed').map((r) => r.check);

  // The same requests, by a bare loop: encode, send, read the body.
  const where = callbackUrl(CALLBACKS['delivery.calculate'], session.registration!.module);
  if ('missing' in where) throw new Error(where.missing);
  const agent = new Agent({ connections: 1 });
  const t1 = performance.now();
  for (const c of sent.slice(0, runs)) {
    const res = await request(where.url, { method: 'POST', headers: { 'content-type': FORM_CONTENT_TYPE }, body: encodeActionForm({ clientId: session.clientId(), field: 'calculate', payload: c.payload }), dispatcher: agent });
    await res.body.arrayBuffer();
  }
  const bareMs = performance.now() - t1;
  await agent.close();

  const engineRate = runs / (engineMs / 1000);
  const bareRate = runs / (bareMs / 1000);
  const row = { runs, seed, engineMs: Math.round(engineMs), bareMs: Math.round(bareMs), engineCasesPerSecond: Math.round(engineRate), bareCasesPerSecond: Math.round(bareRate), ratio: Number((bareRate / engineRate).toFixed(2)), failedChecks: failed };
  console.log(`calculate, ${runs} cases (seed ${seed}): engine ${row.engineCasesPerSecond}/s (${row.engineMs} ms), bare undici loop ${row.bareCasesPerSecond}/s (${row.bareMs} ms): the engine is ${row.ratio}x slower${failed.length ? `; failed checks: ${failed.join(', ')}` : ''}`);
  fs.mkdirSync(path.join(PACKAGE_ROOT, 'reports'), { recursive: true });
  fs.writeFileSync(path.join(PACKAGE_ROOT, 'reports', 'bench-calculate.json'), `${JSON.stringify(row, null, 2)}\n`);
} finally {
  await session.stop();
}
