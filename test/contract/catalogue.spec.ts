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
 * `module`: the system's and the gateway's are the simulators' to keep). Applications are read
 * two ways: the literal ones in every source and spec file (`requirements: [...], severity: X`),
 * and the tables built at run time (the properties, the registration rules, the system-api, run
 * and chat tables).
 */
type Use = { where: string; ids: string[]; severity: string; reason?: string };

function literalUses(): Use[] {
  const files = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(path.join(dir, d.name)) : d.name.endsWith('.ts') ? [path.join(dir, d.name)] : []));
  const uses: Use[] = [];
  for (const file of [...files(path.join(PACKAGE_ROOT, 'src')), ...files(path.join(PACKAGE_ROOT, 'specs'))]) {
    const text = fs.readFileSync(file, 'utf8');
    const where = path.relative(PACKAGE_ROOT, file);
    const idsOf = (s: string): string[] => [...s.matchAll(/'((?:WIRE-)?(?:REG|TEL|DLV|PAY|TRN|BOT|GEN)-[A-Z0-9-]+)'/g)].map((m) => m[1]!);
    // `requirements: <literal or ternary of literals>, severity: <MUST | SHOULD>` and what follows up to the object's end.
    for (const m of text.matchAll(/requirements:\s*([^{}]*?),\s*severity:\s*'?(MUST|SHOULD)\b'?(?: as const)?([^{}]*?)\}/g)) {
      const ids = idsOf(m[1]!);
      if (ids.length === 0 || /[a-z]\w*\[|\.\w*[Ii]ds\b|^\s*[a-z]\w*\s*$/.test(m[1]!.replace(/'[^']*'/g, ''))) continue;
      const reason = /levelReason:\s*'([^']+)'/.exec(m[3]!)?.[1];
      uses.push({ where, ids, severity: m[2]!, ...(reason ? { reason } : {}) });
    }
  }
  return uses;
}

async function tableUses(): Promise<Use[]> {
  const { PROPERTY_CHECKS, propertyChecks } = await import('../../src/properties/registry.ts');
  const { REGISTRATION_ROWS } = await import('../../src/checks/registration/applications.ts');
  const { SYSTEM_API_ROWS } = await import('../../src/checks/system-api/applications.ts');
  const { RUN_ROWS } = await import('../../src/checks/run/applications.ts');
  const { CHAT_ROWS } = await import('../../src/checks/chat/applications.ts');
  const use = (where: string, app: { requirements: string[]; severity: string; levelReason?: string }): Use => ({ where, ids: app.requirements, severity: app.severity, ...(app.levelReason ? { reason: app.levelReason } : {}) });
  return [
    ...Object.keys(PROPERTY_CHECKS).flatMap((name) => [true, false].flatMap((profile) => propertyChecks(name, profile).map((c) => use(`property ${name} ${c.check.name}`, c.app)))),
    ...REGISTRATION_ROWS.map((r) => use(`registration ${r.to}: ${r.check.name}`, r)),
    ...[...SYSTEM_API_ROWS, ...RUN_ROWS].map((r) => use(`${r.to} ${r.check.name}`, r)),
    ...CHAT_ROWS.filter((r) => !r.property).map((r) => use(`chat ${r.to} ${r.check.name}`, r)),
  ].filter((u) => u.ids.length > 0 && u.severity !== 'INFO');
}

test('every application of an id uses its catalogue level, or says why not; only module statements are applied', async () => {
  const cat = catalogue();
  const uses = [...literalUses(), ...(await tableUses())];
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
