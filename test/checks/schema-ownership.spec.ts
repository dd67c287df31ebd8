/**
 * The ownership of schema errors is explicit per application: the generic schema check leaves
 * to a named rule only the errors of the rules applied alongside it (its subject's `owned`), so
 * its result does not depend on which modules were imported, nor in which order.
 */
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { test, expect } from '@playwright/test';
import { contract } from '../../src/contract/schemas.ts';
import { ensureMessageMatchesSchema, ownedBy } from '../../src/checks/schema-rule.ts';
import { ensureTrackingHoldsAtMost100, ensureCallsUploadHoldsAtMost50 } from '../../src/checks/system-api/limits.ts';
import { ensureUploadedCallsHaveRecordUrl } from '../../src/checks/system-api/record-url.ts';
import { REGISTRATION_OWNED } from '../../src/checks/registration/judge.ts';
import { REGISTRATION_RULES } from '../../src/checks/registration/applications.ts';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';

const TRACKING = 'delivery/tracking.request.json';
/** 101 orders: one more than a tracking request may hold. */
const tooMany = Array.from({ length: 101 }, (_, i) => ({ deliveryId: `D${i}` }));
const subject = (owned: ReturnType<typeof ownedBy>) => ({ schema: TRACKING, message: tooMany, errors: contract().validate(TRACKING, tooMany).errors, evidence: [], region: /.*/, owned });

test('an error is left to a named rule only when that rule is applied alongside (its matchers given with the subject)', async () => {
  // The limit rule is loaded in this process: loading it claims nothing.
  expect(ensureTrackingHoldsAtMost100.owns.length).toBeGreaterThan(0);
  expect((await ensureMessageMatchesSchema.run(subject([]))).outcome).toBe('fail');
  expect((await ensureMessageMatchesSchema.run(subject(ownedBy([ensureTrackingHoldsAtMost100])))).outcome).toBe('pass');
  // Matchers of another schema's rule claim nothing here.
  expect((await ensureMessageMatchesSchema.run(subject(ownedBy([ensureCallsUploadHoldsAtMost50])))).outcome).toBe('fail');
  // The rule itself fails on it: one fault, one check.
  expect((await ensureTrackingHoldsAtMost100.run(subject([]))).outcome).toBe('fail');
});

test('ownedBy takes the matchers of the schema rules among the checks, and nothing of the others', () => {
  expect(ownedBy([ensureTrackingHoldsAtMost100, ensureUploadedCallsHaveRecordUrl as never, undefined])).toEqual(ensureTrackingHoldsAtMost100.owns);
  // The registration regions leave to the registration rules what they own, and only that.
  expect(REGISTRATION_OWNED).toEqual(REGISTRATION_RULES.flatMap((r) => (r.check as { owns?: unknown[] }).owns ?? []));
  expect(REGISTRATION_OWNED.every((m) => m.schema === 'registration/integration-module.edit.json')).toBe(true);
});

test('the result does not depend on which modules were imported, nor in which order', () => {
  // Each in a fresh process: the generic check alone, and after every check module was loaded, in two orders.
  const file = (p: string): string => JSON.stringify(pathToFileURL(path.join(PACKAGE_ROOT, p)).href);
  const judge = `
    const { ensureMessageMatchesSchema, ownedBy } = await import(${file('src/checks/schema-rule.ts')});
    const { contract } = await import(${file('src/contract/schemas.ts')});
    const message = Array.from({ length: 101 }, (_, i) => ({ deliveryId: 'D' + i }));
    const s = { schema: ${JSON.stringify(TRACKING)}, message, errors: contract().validate(${JSON.stringify(TRACKING)}, message).errors, evidence: [], region: /.*/ };
    const limits = await import(${file('src/checks/system-api/limits.ts')});
    const alone = (await ensureMessageMatchesSchema.run({ ...s, owned: [] })).outcome;
    const withRule = (await ensureMessageMatchesSchema.run({ ...s, owned: ownedBy([limits.ensureTrackingHoldsAtMost100]) })).outcome;
    console.log(JSON.stringify([alone, withRule]));`;
  const scripts = {
    'the schema rule module alone': judge,
    'every check module first': `await import(${file('src/checks/registration/judge.ts')}); await import(${file('src/run/system-calls.ts')});${judge}`,
    'the registration rules after': `${judge}; await import(${file('src/checks/registration/judge.ts')});`,
  };
  for (const [name, script] of Object.entries(scripts)) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
    expect(r.status, `${name}: ${r.stderr}`).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!), name).toEqual(['fail', 'pass']);
  }
});
