import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { catalogue, REQUIREMENT_ID, areaOf } from '../../src/contract/catalogue.ts';
import { contract, formatErrors } from '../../src/contract/schemas.ts';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';

const entries = catalogue().entries;
const SPEC_DIR = path.resolve(PACKAGE_ROOT, '..', 'shared', 'spec');

/** Lower-case, no markdown emphasis or code marks, single spaces. */
const normalise = (s: string): string =>
  s.replace(/[`*_]/g, '').replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim().toLowerCase();

test('the catalogue holds well over 150 requirements, in every area', () => {
  expect(entries.length).toBeGreaterThan(150);
  const areas = new Set(entries.map((e) => areaOf(e.id)));
  expect([...areas].sort()).toEqual(['BOT', 'DLV', 'GEN', 'PAY', 'REG', 'TEL', 'TRN']);
  expect(entries.some((e) => e.id.startsWith('WIRE-'))).toBe(true);
});

test('ids are unique and well formed', () => {
  const seen = new Set<string>();
  const dupes = entries.filter((e) => (seen.has(e.id) ? true : (seen.add(e.id), false))).map((e) => e.id);
  expect(dupes).toEqual([]);
  expect(entries.filter((e) => !REQUIREMENT_ID.test(e.id)).map((e) => e.id)).toEqual([]);
});

test('every entry follows the catalogue schema', () => {
  const bad = entries
    .map((e) => ({ id: e.id, out: contract().validate('suite/requirement.json', e) }))
    .filter((r) => !r.out.valid)
    .map((r) => `${r.id}: ${formatErrors(r.out.errors)}`);
  expect(bad).toEqual([]);
});

test('wire-profile statements carry WIRE- ids, and the rest come from the document', () => {
  const misplaced = entries
    .filter((e) => e.id.startsWith('WIRE-') !== /wire-profile/i.test(e.section))
    .map((e) => `${e.id} (${e.section})`);
  expect(misplaced).toEqual([]);
});

test('every quote is found in its source document', () => {
  test.skip(!fs.existsSync(SPEC_DIR), 'shared/spec is not beside the repository');
  const doc = normalise(fs.readFileSync(path.join(SPEC_DIR, 'integration-interface.md'), 'utf8'));
  const wire = normalise(fs.readFileSync(path.join(SPEC_DIR, 'wire-profile.md'), 'utf8'));
  const missing = entries.filter((e) => {
    const source = e.id.startsWith('WIRE-') ? wire : doc;
    return normalise(e.quote)
      .split(/\s*(?:\.\.\.|…)\s*/)
      .filter((part) => part.length > 0)
      .some((part) => !source.includes(part));
  });
  expect(missing.map((e) => `${e.id}: ${e.quote}`)).toEqual([]);
});

test('`conformance requirements --json` prints the catalogue as a JSON array', () => {
  const out = execFileSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'conformance.js'), 'requirements', '--json'], {
    encoding: 'utf8',
  });
  const printed = JSON.parse(out) as Array<Record<string, unknown>>;
  expect(printed.length).toBe(entries.length);
  for (const key of ['id', 'section', 'quote', 'actor', 'level', 'testable']) expect(printed[0]).toHaveProperty(key);
});

test('`conformance requirements` prints a table with the counts', () => {
  const out = execFileSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'conformance.js'), 'requirements'], {
    encoding: 'utf8',
  });
  expect(out.split('\n')[0]).toMatch(/^id\s+level\s+actor\s+testability\s+section$/);
  expect(out).toContain(`${entries.length} requirements, ${entries.filter((e) => e.testable).length} testable`);
});

/**
 * Severity from the words of the documents (issue 31, item 7): every application of a requirement
 * id uses the catalogue level of its ids (MUST when any id is MUST, SHOULD when all are SHOULD), or
 * states why not (`levelReason`); and applies only statements that bind the module (actor
 * `module`: the system's and the gateway's are the simulators' to keep). Every application is a
 * row of an area's table (`src/checks/tables.ts`; test/contract/layout.spec.ts holds ids there).
 */
type Use = { where: string; ids: string[]; severity: string; reason?: string };

async function tableUses(): Promise<Use[]> {
  const { ALL_ROWS } = await import('../../src/checks/tables.ts');
  return ALL_ROWS.map((r) => ({ where: `${r.to}: ${r.check.name}`, ids: r.requirements, severity: r.severity, ...(r.levelReason ? { reason: r.levelReason } : {}) })).filter((u) => u.ids.length > 0 && u.severity !== 'INFO');
}

test('every application of an id uses its catalogue level, or says why not; only module statements are applied', async () => {
  const cat = catalogue();
  const uses = await tableUses();
  expect(uses.length).toBeGreaterThan(150);
  const levelOf = (ids: string[]): string => (ids.some((id) => cat.get(id).level === 'MUST') ? 'MUST' : 'SHOULD');
  const disagree = uses.filter((u) => u.severity !== levelOf(u.ids) && !u.reason).map((u) => `${u.where}: ${u.ids.join(', ')} applied ${u.severity}, catalogue ${levelOf(u.ids)}`);
  expect([...new Set(disagree)]).toEqual([]);
  const notModule = uses.flatMap((u) => u.ids.filter((id) => cat.get(id).actor !== 'module').map((id) => `${u.where}: ${id} (${cat.get(id).actor})`));
  expect([...new Set(notModule)]).toEqual([]);
  // The levels issue 31 changed after reading each MUST quote: no sentence binds the module.
  expect(['TRN-RATE-LIMIT-BACKOFF', 'BOT-RATE-LIMIT-BACKOFF', 'TRN-VERIFY-WITHIN-2-WORKING-DAYS'].map((id) => cat.get(id).level)).toEqual(['SHOULD', 'SHOULD', 'SHOULD']);
  // The uses read: the rate limit's resend (SHOULD), the bot's pause before a redial (SHOULD below a MUST id, with its reason).
  expect(uses.filter((u) => u.ids.includes('TRN-RATE-LIMIT-BACKOFF')).map((u) => u.severity)).toEqual(['SHOULD', 'SHOULD']);
  expect(uses.find((u) => u.where.includes('ensureBotPausesBeforeRedialing'))).toMatchObject({ severity: 'SHOULD', reason: expect.stringContaining('official bot') });
});
