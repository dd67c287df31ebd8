/**
 * Generated requests through the whole suite: a failing property saves its shrunk case, and
 * `conformance replay FILE` sends exactly that request again and judges it the same way (still
 * failing against the same fault, holding against the plain reference module); one seed sends
 * the same requests in two runs. The seed is on the console and in results.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect, type TestInfo } from '@playwright/test';
import { runReplay as replay } from './run-suite.ts';
import { batchedRun } from './batch.ts';
import { REPLAY_FAULT as FAULT, REPLAY_ROWS, REPLAY_TITLES, ROW_TEST_TIMEOUT_MS, rowNamed } from './run-rows.ts';
import { replayLine } from '../../src/cli/replay.ts';
import type { SavedFailure } from '../../src/checks/case.ts';
import type { Results } from '../../src/report/results.ts';

// The first runs are rows of the shared batch (run-rows.ts); the replays are this file's own.
test.describe.configure({ mode: 'parallel', timeout: ROW_TEST_TIMEOUT_MS });

const rowRun = (name: string, testInfo: TestInfo) => batchedRun('replay', REPLAY_ROWS, rowNamed(REPLAY_ROWS, name), testInfo);


test(REPLAY_TITLES.calculate, async ({}, testInfo) => {
  const run = await rowRun('replay-calculate', testInfo);
  expect(run.exitCode, run.stderr).toBe(1);
  const r = run.results!;
  expect(r.run.seed).toBe(11);
  expect(r.run.generation).toEqual({ seed: 11, runs: 100, timeLimitMs: expect.any(Number), lanes: 4 });
  // (The seed line of the console, printed as a run starts, is a whole run's: tls.spec.ts.)

  const result = r.results.find((x) => x.check === 'ensureTariffCostIsNumberOrAbsent')!;
  expect(result.status).toBe('failed');
  const p = result.property!;
  expect(p).toMatchObject({ property: 'delivery.calculate: valid requests', seed: 11, runs: 100, cases: 100 });
  expect(p.failed).toBeGreaterThan(0);
  const c = p.counterexample!;
  expect(c.file).toBe('failures/ensureTariffCostIsNumberOrAbsent.delivery.calculate-valid-requests.json');
  // The counterexample's exchange is in the report, marked with its case.
  expect(r.exchanges.find((x) => x.id === c.exchange)?.case).toMatch(/^calculate-valid#\d+(\.s\d+)?$/);

  // The saved failure: the shrunk request (10,001 g in all, in one package or two that no single removal keeps over 10 kg), as sent, with the seed, the path, the reply and the verdict.
  const file = path.join(run.out, c.file!);
  const failure = JSON.parse(fs.readFileSync(file, 'utf8')) as SavedFailure;
  expect(failure).toMatchObject({ check: 'ensureTariffCostIsNumberOrAbsent', requirements: ['DLV-CALCULATE-TARIFF-FIELDS'], severity: 'MUST', property: p.property, seed: 11, path: c.path });
  const packages = (failure.case.payload as { packages: Array<{ weight: number }> }).packages;
  expect(packages.length).toBeLessThanOrEqual(2);
  expect(packages.reduce((s, pkg) => s + pkg.weight, 0)).toBe(10001);
  expect(failure.case.payload).toEqual(c.request);
  expect(failure.request.body).toMatch(/^clientId=<redacted:clientId>&calculate=/);
  expect(failure.request.body).toContain(encodeURIComponent(`"weight":${packages[0]!.weight}`));
  expect(failure.reply.status).toBe(200);
  expect(failure.verdict.outcome).toBe('fail');
  // The console's line points at it.
  expect(run.stdout).toMatch(/FAIL ensureTariffCostIsNumberOrAbsent \[DLV-CALCULATE-TARIFF-FIELDS\] \(\d+ of 100 cases failed, seed 11; conformance replay \S*ensureTariffCostIsNumberOrAbsent\.delivery\.calculate-valid-requests\.json\)/);

  const [again, fixed] = await Promise.all([replay(file, { FAULTS: FAULT }), replay(file, { FAULTS: '' })]);
  // Against the same fault: the same verdict, exit 1.
  expect(again.exitCode, again.stderr).toBe(1);
  expect(again.stdout.trimEnd().split('\n').at(-1)).toBe(replayLine(failure.check, failure.requirements, { outcome: 'fail', received: failure.verdict.received!, expected: failure.verdict.expected! }));
  // The request sent is the one saved.
  const sent = JSON.parse(fs.readFileSync(path.join(again.out, 'replay.json'), 'utf8')) as { exchange: { request: { body: string; url: string } }; result: { status: string } };
  expect(sent.exchange.request.body).toBe(failure.request.body);
  expect(new URL(sent.exchange.request.url).pathname).toBe(new URL(failure.request.url).pathname);
  expect(sent.result.status).toBe('failed');
  // Against the plain reference module: it holds, exit 0.
  expect(fixed.exitCode, fixed.stderr).toBe(0);
  expect(fixed.stdout).toMatch(/\nreplay: ensureTariffCostIsNumberOrAbsent \[DLV-CALCULATE-TARIFF-FIELDS\] PASS {2}Held: /);
  // One launch each.
  for (const x of [again, fixed]) expect(fs.readFileSync(path.join(x.out, 'internal', 'launches.log'), 'utf8').trim().split('\n')).toHaveLength(1);
});

test(REPLAY_TITLES.sequence, async ({}, testInfo) => {
  const run = await rowRun('replay-sequence', testInfo);
  expect(run.exitCode, run.stderr).toBe(1);
  const result = run.results!.results.find((x) => x.check === 'ensureLiveDeliveryIsServed' && x.status === 'failed')!;
  const file = path.join(run.out, result.property!.counterexample!.file!);
  const failure = JSON.parse(fs.readFileSync(file, 'utf8')) as SavedFailure;
  expect(failure.case.intent).toEqual({ kind: 'sequence' });
  // Shrunk: the sequence's own save, and the edit the fault turns on (its get follows it within the step).
  const ops = (failure.case.payload as { steps: Array<{ op: string }> }).steps.map((st) => st.op);
  expect(ops.slice(0, 2)).toEqual(['save', 'edit']);
  expect(failure.verdict.received).toMatch(/^step \d+ of \d+, get: deliveryId /);
  const [again, fixed] = await Promise.all([replay(file, { FAULTS: 'get-after-edit-unknown' }), replay(file, { FAULTS: '' })]);
  expect(again.exitCode, again.stderr).toBe(1);
  expect(again.stdout).toMatch(/\nreplay: ensureLiveDeliveryIsServed \[WIRE-DLV-GET-RESULT-SHAPE\] FAIL {2}Received: step \d+ of \d+, get: /);
  expect(fixed.exitCode, fixed.stderr).toBe(0);
  expect(fixed.stdout).toMatch(/\nreplay: ensureLiveDeliveryIsServed \[WIRE-DLV-GET-RESULT-SHAPE\] PASS {2}Held: held on \d+ step\(s\) of the sequence/);
});

test(REPLAY_TITLES.payment, async ({}, testInfo) => {
  const run = await rowRun('replay-payment', testInfo);
  expect(run.exitCode, run.stderr).toBe(1);
  const result = run.results!.results.find((x) => x.check === 'ensureCanceledInvoiceTakesNoPayment' && x.status === 'failed')!;
  const file = path.join(run.out, result.property!.counterexample!.file!);
  const failure = JSON.parse(fs.readFileSync(file, 'utf8')) as SavedFailure;
  expect(failure.case.intent).toEqual({ kind: 'sequence' });
  // Shrunk to the invoice, its cancel (an action of the manager the table allows, or the cancel named) and the payment told after it.
  const steps = (failure.case.payload as { steps: Array<{ op: string; event?: string; action?: string }> }).steps;
  expect(steps.map((st) => st.op)).toEqual(['create', steps[1]!.op === 'action' ? 'action' : 'manage', 'notify']);
  if (steps[1]!.op === 'action') expect(steps[1]!.action).toBe('cancel');
  expect(steps[2]!.event).toBe('paid');
  expect(failure.verdict.received).toMatch(/^step 3 of 3, trigger payment.notify \(paid\): .*succeeded reported for a canceled invoice/);
  const [again, fixed] = await Promise.all([replay(file, { FAULTS: 'canceled-still-paid' }), replay(file, { FAULTS: '' })]);
  expect(again.exitCode, again.stderr).toBe(1);
  expect(again.stdout).toMatch(/\nreplay: ensureCanceledInvoiceTakesNoPayment \[PAY-CANCELED-NO-MORE-PAYMENTS\] FAIL {2}Received: step 3 of 3, trigger payment.notify/);
  expect(fixed.exitCode, fixed.stderr).toBe(0);
  expect(fixed.stdout).toMatch(/\nreplay: ensureCanceledInvoiceTakesNoPayment \[PAY-CANCELED-NO-MORE-PAYMENTS\] PASS {2}Held: held on 1 step\(s\) of the sequence/);
});

test(REPLAY_TITLES.bot, async ({}, testInfo) => {
  const run = await rowRun('replay-bot', testInfo);
  expect(run.exitCode, run.stderr).toBe(1);
  const result = run.results!.results.find((x) => x.check === 'ensureBotAnswersInItsChat' && x.status === 'failed')!;
  const file = path.join(run.out, result.property!.counterexample!.file!);
  const failure = JSON.parse(fs.readFileSync(file, 'utf8')) as SavedFailure;
  expect(failure.case.callback).toBe('bot.websocket-frame');
  const [again, fixed] = await Promise.all([replay(file, { FAULTS: 'bot-answers-other-chat' }), replay(file, { FAULTS: '' })]);
  expect(again.exitCode, again.stderr).toBe(1);
  expect(again.stdout).toMatch(/\nreplay: ensureBotAnswersInItsChat \[BOT-WEBSOCKET-LISTEN\] FAIL {2}Received: a command in chat (\d+) answered with chat_id (?!\1\b)\d+/);
  expect(fixed.exitCode, fixed.stderr).toBe(0);
  expect(fixed.stdout).toMatch(/\nreplay: ensureBotAnswersInItsChat \[BOT-WEBSOCKET-LISTEN\] PASS {2}Held: answered in chat \d+/);
});

test(REPLAY_TITLES.seed, async ({}, testInfo) => {
  const calculate = (r: Results | undefined): Array<{ label: string; path: string; body: string | undefined }> =>
    (r?.exchanges ?? [])
      .filter((x) => x.label.startsWith('delivery.calculate'))
      .map((x) => ({ label: x.label, path: new URL(x.request.url ?? '', 'http://x').pathname, body: x.request.body }));
  const [a, b] = await Promise.all([rowRun('replay-seed-a', testInfo), rowRun('replay-seed-b', testInfo)]);
  expect(a.exitCode, a.stderr).toBe(0);
  expect(b.exitCode, b.stderr).toBe(0);
  expect(a.results!.run.seed).toBe(5);
  const sent = calculate(a.results);
  // Both properties, 20 cases each.
  expect(sent).toHaveLength(40);
  expect(new Set(sent.map((x) => x.body)).size).toBeGreaterThan(1);
  expect(calculate(b.results)).toEqual(sent);
});
