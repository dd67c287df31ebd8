/**
 * `conformance run --area a,b`: a run narrowed to areas of the specs (the registration area
 * always runs), alone or with `--grep`. Every conformance test names its area with a tag; the
 * one pattern Playwright is given selects exactly the tests of the areas (whose titles match).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { areasOption, inAreas, parseRunArgs, playwrightGrep, prepareRun, RUN_USAGE } from '../../src/cli/run.ts';
import { kindTags } from '../../src/cli/kinds.ts';
import { MODULE_KINDS, type ModuleKind } from '../../src/contract/kinds.ts';
import { ConfigError } from '../../src/module/config-error.ts';
import { listConformanceTests, selectionOf } from '../../src/cli/listing.ts';
import { AREAS } from '../../src/run/areas.ts';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { contract } from '../../src/contract/schemas.ts';
import { narrowingText } from '../../src/report/coverage.ts';
import { runSuite } from '../gauntlet/run-suite.ts';
import { batchedRun } from '../gauntlet/batch.ts';
import { AREA_ROWS, ROW_TEST_TIMEOUT_MS } from '../gauntlet/run-rows.ts';
import { playwrightList as list, playwrightLists, type PlaywrightListed as Listed } from './playwright-list.ts';

test('--area takes areas, comma-separated, the registration area always among them, in the order of src/run/areas.ts', () => {
  expect(parseRunArgs(['--area', 'payment,delivery']).areas).toEqual(['registration', 'delivery', 'payment']);
  expect(parseRunArgs(['--area=telephony']).areas).toEqual(['registration', 'telephony']);
  expect(parseRunArgs(['--area', 'registration']).areas).toEqual(['registration']);
  expect(parseRunArgs(['--area', 'chat', '--area', 'delivery']).areas).toEqual(['registration', 'delivery', 'chat']);
  expect(parseRunArgs([]).areas).toBeUndefined();
  expect(RUN_USAGE).toContain(`--area AREAS             run only the specs of these areas, comma-separated (${AREAS.join(', ')})`);
});

test('an unknown area is a configuration error naming the nearest one', () => {
  expect(() => areasOption('delivry')).toThrow('unknown area "delivry" in --area delivry; did you mean delivery? known areas: registration, delivery, payment, telephony, chat');
  expect(() => parseRunArgs(['--area', 'delivery,Payment'])).toThrow('unknown area "Payment" in --area delivery,Payment; did you mean payment?');
  expect(() => parseRunArgs(['--area', 'delivery,'])).toThrow('unknown area "" in --area delivery,; known areas: ');
  expect(() => parseRunArgs(['--area', 'orders'])).toThrow(/^unknown area "orders" in --area orders; known areas: registration, delivery, payment, telephony, chat$/);
});

test('an unknown area ends the run with exit 2 and one line, before anything starts', async () => {
  const run = await runSuite(['--area', 'telefony']);
  expect(run.exitCode).toBe(2);
  expect(run.stderr).toBe('conformance run: unknown area "telefony" in --area telefony; did you mean telephony? known areas: registration, delivery, payment, telephony, chat\n');
  expect(run.results).toBeUndefined();
});

test('a --grep that selects nothing in the areas ends the run with exit 2, though it selects elsewhere', async () => {
  const run = await runSuite(['--area', 'telephony', '--grep', 'tracking'], { FAULTS: '' });
  expect(run.exitCode).toBe(2);
  expect(run.stderr).toMatch(/^conformance run: no check matches --grep "tracking" in the areas registration, telephony \(none of the titles of the \d+ conformance tests of those areas; the pattern is a case-insensitive regular expression\)\n$/);
  expect(run.results).toBeUndefined();
});

test(AREA_ROWS[0]!.title, async ({}, testInfo) => {
  // A whole run (a row of the shared batch, played as the self-test run begins).
  test.setTimeout(ROW_TEST_TIMEOUT_MS);
  const run = await batchedRun('area', AREA_ROWS, AREA_ROWS[0]!, testInfo);
  // The output folder holds what a vendor publishes; the run's own files are in internal/.
  expect(fs.readdirSync(run.out).filter((f) => !['results.json', 'conformance.html', 'junit.xml', 'failures', 'module.stdout.log', 'module.stderr.log', 'internal'].includes(f))).toEqual([]);
  expect(fs.existsSync(path.join(run.out, 'internal', 'launches.log'))).toBe(true);
  expect(run.results, run.stderr).toBeDefined();
  expect(run.exitCode).toBe(0);
  const r = run.results!;
  const valid = contract().validate('suite/results.json', r);
  expect(valid.errors).toEqual([]);
  expect(r.run.selection).toMatchObject({ areas: ['registration', 'delivery'] });
  expect(r.run.selection!.grep).toBeUndefined();
  expect(r.run.selection!.leftOutTests).toEqual(expect.arrayContaining(['module calls to the system API › call history uploaded (60 calls: more than one request)']));
  expect(r.run.selection!.leftOutTests.some((t) => /tracking|registration ›|activity/.test(t))).toBe(false);
  expect(r.coverage!.narrowed).toEqual({ areas: ['registration', 'delivery'], selected: r.run.selection!.selected, total: r.run.selection!.total });
  expect(r.coverage!.verdict).toBe('PASS');
  expect(r.coverage!.groups.leftOut.ids).toContain('TEL-UPLOAD-MAX-50');
  // The registration area's activity spec called the module: the rule is judged, as in a whole run.
  expect(r.results.find((x) => x.check === 'ensureModuleWasReached')?.status).toBe('passed');
  expect(run.stdout).toContain(`conformance: PASS (no MUST failure) in a run narrowed by --area registration,delivery (${r.run.selection!.selected} of ${r.run.selection!.total} conformance tests)`);
});

test('the narrowing in words, as a command line says it', () => {
  expect(narrowingText({ grep: 'tracking' })).toBe('--grep "tracking"');
  expect(narrowingText({ areas: ['registration', 'delivery'] })).toBe('--area registration,delivery');
  expect(narrowingText({ areas: ['registration'], grep: 'activity' })).toBe('--area registration --grep "activity"');
});

test.describe('the pattern Playwright is given', () => {
  // What Playwright lists, read when a test needs it (not as the file loads).
  const AREA_SETS = [['registration'], ['registration', 'delivery'], ['registration', 'telephony'], ['registration', 'payment', 'chat']];
  let all: Listed[];
  test.beforeEach(() => {
    all = list();
  });

  test('every conformance test is tagged with exactly one area', () => {
    expect(all.length).toBeGreaterThan(20);
    const untagged = all.filter((t) => t.tags.filter((tag) => (AREAS as readonly string[]).includes(tag.slice(1))).length !== 1);
    expect(untagged.map((t) => `${t.file}: ${t.title} ${t.tags.join(' ')}`)).toEqual([]);
    // The registration folder is the registration area; the system API flows are delivery or telephony.
    for (const t of all.filter((t) => t.file.startsWith('registration/'))) expect(t.tags, t.title).toContain('@registration');
    expect(all.find((t) => t.title.includes('tracking'))?.tags).toContain('@delivery');
    expect(all.find((t) => t.title.includes('call history uploaded'))?.tags).toContain('@telephony');
    expect(all.find((t) => t.title.includes('call event'))?.tags).toContain('@telephony');
  });

  test('areas alone: exactly the tests of those areas, as the run selects them from the listing\'s tags', async () => {
    const listed = (await listConformanceTests(undefined, path.join(PACKAGE_ROOT, 'reports')))!;
    playwrightLists(AREA_SETS.map((areas) => playwrightGrep(undefined, areas)));
    for (const areas of AREA_SETS) {
      const expected = all.filter((t) => t.tags.some((tag) => areas.includes(tag.slice(1)))).map((t) => t.title);
      expect(list(playwrightGrep(undefined, areas)).map((t) => t.title), areas.join(',')).toEqual(expected);
      // (The run lists the registration area's files first; the order is not the selection.)
      expect(listed.filter((t) => inAreas(t, areas)).map((t) => t.title).sort(), areas.join(',')).toEqual([...expected].sort());
    }
  });

  test('areas and a pattern: the tests of those areas whose title matches', async () => {
    // "call" is in titles of the registration area (the registration call, a callback with...) and of telephony.
    const patterns = [['call', ['registration']], ['call', ['registration', 'telephony']], ['/CALL/', ['registration', 'telephony']], ['/call/', ['registration', 'telephony']], ['tracking', ['registration']]].map(([g, areas]) => playwrightGrep(g as string, areas as string[])!).concat('tracking');
    // The suite's one listing selects for each pattern what Playwright, given the pattern, selects.
    const own = await Promise.all(patterns.map(async (p) => (await listConformanceTests(p, path.join(PACKAGE_ROOT, 'reports')))!.map((t) => t.title).sort()));
    expect(own).toEqual(playwrightLists(patterns).map((l) => l.map((t) => t.title).sort()));
    const calls = (areas: string[]): string[] => all.filter((t) => t.tags.some((tag) => areas.includes(tag.slice(1))) && /call/i.test(t.title)).map((t) => t.title);
    expect(list(playwrightGrep('call', ['registration'])).map((t) => t.title)).toEqual(calls(['registration']));
    expect(list(playwrightGrep('call', ['registration', 'telephony'])).map((t) => t.title)).toEqual(calls(['registration', 'telephony']));
    expect(calls(['registration', 'telephony']).length).toBeGreaterThan(calls(['registration']).length);
    // A pattern in the /source/flags form keeps its flags (case-sensitive here).
    expect(list(playwrightGrep('/CALL/', ['registration', 'telephony'])).map((t) => t.title)).toEqual([]);
    expect(list(playwrightGrep('/call/', ['registration', 'telephony'])).length).toBeGreaterThan(0);
    // A pattern that selects nothing in the areas, though it does elsewhere.
    expect(list(playwrightGrep('tracking', ['registration']))).toEqual([]);
    expect(list('tracking').length).toBe(1);
  });

  test('the selection of an --area run names the areas and what it left out; results.json takes it', () => {
    const selected = list(playwrightGrep(undefined, ['registration', 'telephony'])).map((t) => ({ title: t.title, covers: [] }));
    const selection = selectionOf({ areas: ['registration', 'telephony'] }, all.map((t) => ({ title: t.title, covers: [] })), selected);
    expect(selection).toMatchObject({ areas: ['registration', 'telephony'], selected: selected.length, total: all.length });
    expect(selection.grep).toBeUndefined();
    expect(selection.leftOutTests).toContain('module calls to the system API › delivery statuses pushed through tracking (120 orders: more than one request)');
    const errors = contract().validate('suite/results.json', { run: { selection } }).errors.filter((e) => e.instancePath.startsWith('/run/selection'));
    expect(errors).toEqual([]);
    const none = contract().validate('suite/results.json', { run: { selection: { selected: 1, total: 2, leftOutTests: [], leftOut: [] } } }).errors.filter((e) => e.instancePath.startsWith('/run/selection'));
    expect(none.length).toBeGreaterThan(0);
  });
});

test.describe('--kind: the tests of module kinds', () => {
  test('--kind takes kinds by the contract\'s names, comma-separated, in the order of src/contract/kinds.ts; not with --area', () => {
    expect(parseRunArgs(['--kind', 'mgBot,delivery']).kinds).toEqual(['delivery', 'mgBot']);
    expect(parseRunArgs(['--kind=payment', '--kind', 'telephony']).kinds).toEqual(['telephony', 'payment']);
    expect(parseRunArgs([]).kinds).toBeUndefined();
    expect(() => parseRunArgs(['--kind', 'mgbot'])).toThrow('unknown kind "mgbot" in --kind mgbot; did you mean mgBot? known kinds: telephony, delivery, payment, mgTransport, mgBot');
    expect(() => parseRunArgs(['--kind', 'chat'])).toThrow('unknown kind "chat" in --kind chat; chat is an area of the kinds mgTransport, mgBot; known kinds: telephony, delivery, payment, mgTransport, mgBot');
    expect(() => parseRunArgs(['--kind', 'registration'])).toThrow('unknown kind "registration" in --kind registration; registration is an area (its tests always run); known kinds:');
    expect(() => parseRunArgs(['--kind', 'delivery', '--area', 'payment'])).toThrow('--kind and --area do not go together: give the kinds (--kind) or the areas (--area)');
    expect(() => parseRunArgs(['--area', 'payment', '--kind', 'delivery'])).toThrow(ConfigError);
    expect(RUN_USAGE).toContain(`--kind KINDS             run only the tests of these module kinds, comma-separated (${MODULE_KINDS.join(', ')})`);
  });

  test('--kind and --area together, or an unknown kind, end the run with exit 2 and one line, before anything starts', async () => {
    const lines: string[] = [];
    const stderr = { write: (t: string) => lines.push(t) };
    expect(await prepareRun(['--kind', 'delivery', '--area', 'chat'], { stderr, list: async () => [] })).toBe(2);
    expect(await prepareRun(['--kind', 'telefony'], { stderr, list: async () => [] })).toBe(2);
    expect(lines).toEqual([
      'conformance run: --kind and --area do not go together: give the kinds (--kind) or the areas (--area)\n',
      'conformance run: unknown kind "telefony" in --kind telefony; did you mean telephony? known kinds: telephony, delivery, payment, mgTransport, mgBot\n',
    ]);
  });

  test('every chat test names its kind; a kind selects its tests and the registration area\'s, as Playwright and the listing select them', async () => {
    const [all] = playwrightLists([undefined, playwrightGrep(undefined, kindTags(['mgBot']))]) as [Listed[], Listed[]];
    const chat = all.filter((t) => t.tags.includes('@chat'));
    expect(chat.length).toBeGreaterThan(5);
    const kindOf = (t: Listed): string[] => t.tags.filter((tag) => ['@mgTransport', '@mgBot'].includes(tag));
    expect(chat.filter((t) => kindOf(t).length !== 1).map((t) => `${t.file}: ${t.title}`)).toEqual([]);
    expect(all.filter((t) => !t.tags.includes('@chat') && kindOf(t).length > 0)).toEqual([]);
    expect(chat.find((t) => t.title.includes('WebSocket'))?.tags).toContain('@mgBot');
    expect(chat.find((t) => t.title.startsWith('transport webhooks'))?.tags).toContain('@mgTransport');
    const listed = (await listConformanceTests(undefined, path.join(PACKAGE_ROOT, 'reports')))!;
    const ofKinds = (kinds: string[]): string[] => all.filter((t) => t.tags.includes('@registration') || kinds.some((k) => t.tags.includes(`@${k}`))).map((t) => t.title);
    for (const kinds of [['mgBot'], ['delivery', 'mgTransport'], ['telephony']] as ModuleKind[][]) {
      const expected = ofKinds(kinds);
      expect(listed.filter((t) => inAreas(t, kindTags(kinds))).map((t) => t.title).sort(), kinds.join(',')).toEqual([...expected].sort());
      // The run selects from the listing's tags; the pattern Playwright is given selects the same.
      expect(playwrightGrep(undefined, kindTags(kinds))).toBe(`@(?:registration|${kinds.join('|')})(?![\\w-])`);
    }
    expect(list(playwrightGrep(undefined, kindTags(['mgBot']))).map((t) => t.title)).toEqual(ofKinds(['mgBot']));
    // mgBot and mgTransport split the chat area between them.
    expect([...ofKinds(['mgBot']), ...ofKinds(['mgTransport'])].filter((t) => chat.some((c) => c.title === t)).sort()).toEqual(chat.map((t) => t.title).sort());
  });

  test('the selection of a --kind run names the kinds; results.json takes it; the verdict line says --kind', async () => {
    const all = list().map((t) => ({ title: t.title, covers: [], tags: t.tags }));
    let written: Record<string, unknown> | undefined;
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-kind-'));
    const prepared = await prepareRun(['--kind', 'mgBot', '--out', out], { list: async (grep) => (grep === undefined ? all : undefined) });
    expect(typeof prepared).toBe('object');
    if (typeof prepared === 'object') written = JSON.parse(fs.readFileSync(prepared.configFile, 'utf8')) as Record<string, unknown>;
    const selection = written!.selection as Record<string, unknown>;
    expect(selection).toMatchObject({ kinds: ['mgBot'], selected: all.filter((t) => inAreas(t, ['registration', 'mgBot'])).length, total: all.length });
    expect(selection.areas).toBeUndefined();
    expect(selection.leftOutTests).toContain('transport webhooks › webhooks with a missing or unknown ClientId are refused and leave no effect the gateway can see');
    const errors = contract().validate('suite/results.json', { run: { selection } }).errors.filter((e) => e.instancePath.startsWith('/run/selection'));
    expect(errors).toEqual([]);
    expect(narrowingText({ kinds: ['delivery', 'mgBot'] })).toBe('--kind delivery,mgBot');
    expect(narrowingText({ kinds: ['mgBot'], grep: 'socket' })).toBe('--kind mgBot --grep "socket"');
    fs.rmSync(out, { recursive: true, force: true });
  });
});
