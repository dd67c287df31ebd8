/**
 * The README holds: its configuration table names exactly the keys of the configuration schema
 * (and, in each row, every key of that section), its trigger table exactly the triggers the
 * suite knows with their parameters, and the counts it states are those the code computes (the
 * conformance tests of the listing; the applicable requirements of a module of every kind, and
 * the arithmetic of each verdict line it shows).
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { catalogue } from '../../src/contract/catalogue.ts';
import { TRIGGERS } from '../../src/module/triggers.ts';
import { TRIGGER_PARAMETERS } from '../../src/module/placeholders.ts';
import { computeCoverage } from '../../src/report/coverage.ts';
import { listConformanceTests } from '../../src/cli/listing.ts';

const README = fs.readFileSync(path.join(PACKAGE_ROOT, 'README.md'), 'utf8');
type Schema = { properties?: Record<string, Schema>; additionalProperties?: Schema | boolean; propertyNames?: { enum?: string[] }; $ref?: string; type?: string };
const SCHEMA = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'schemas', 'suite', 'config.json'), 'utf8')) as Schema & { $defs?: Record<string, Schema> };

/** The text of a `###` section, from its heading to the next heading of any level. */
function section(heading: string): string {
  const start = README.indexOf(`\n### ${heading}\n`);
  expect(start, `README section "${heading}"`).toBeGreaterThan(0);
  const rest = README.slice(start + heading.length + 6);
  const end = rest.search(/\n#{1,3} /);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The rows of the section's table whose first cell names keys in backticks: the names and the whole row. */
function rows(text: string): Array<{ names: string[]; row: string; cells: string[] }> {
  return text
    .split('\n')
    .filter((l) => /^\| `/.test(l))
    .map((row) => {
      const cells = row.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
      return { names: [...cells[0]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!), row, cells };
    });
}

const resolve = (s: Schema): Schema => (s.$ref ? SCHEMA.$defs![s.$ref.replace('#/$defs/', '')]! : s);

test.describe('the configuration table', () => {
  const table = rows(section('The configuration file'));

  test('names exactly the top-level keys of schemas/suite/config.json, each once', () => {
    const named = table.flatMap((r) => r.names);
    expect([...named].sort()).toEqual(Object.keys(SCHEMA.properties!).sort());
    expect(new Set(named).size).toBe(named.length);
  });

  test("each row names every key of its section (a trigger's keys in the triggers row)", () => {
    for (const { names, row } of table) {
      for (const name of names) {
        const schema = resolve(SCHEMA.properties![name]!);
        const inner = schema.properties ?? (typeof schema.additionalProperties === 'object' ? resolve(schema.additionalProperties).properties : undefined);
        for (const key of Object.keys(inner ?? {})) expect(row, `${name}.${key}`).toContain(`\`${key}\``);
      }
    }
  });
});

test.describe('the trigger table', () => {
  const table = rows(section('Triggers'));

  test('names exactly the triggers the suite knows, in their order, as the schema accepts them', () => {
    expect(table.map((r) => r.names[0])).toEqual(Object.keys(TRIGGERS));
    expect(SCHEMA.properties!.triggers!.propertyNames!.enum).toEqual(Object.keys(TRIGGERS));
  });

  test("names each trigger's parameters (outside parentheses), and none for a trigger without", () => {
    for (const { names, cells } of table) {
      const name = names[0]!;
      const cell = cells.at(-1)!.replace(/\([^)]*\)/g, '');
      expect([...cell.matchAll(/`(\w+)`/g)].map((m) => m[1]), name).toEqual(TRIGGER_PARAMETERS[name]);
      if (TRIGGER_PARAMETERS[name]!.length === 0) expect(cell.trim(), name).toBe('none');
    }
  });
});

test.describe('the counts', () => {
  test('every count of conformance tests is the listing of the suite', async () => {
    test.setTimeout(120_000);
    const listed = await listConformanceTests(undefined, path.join(PACKAGE_ROOT, 'reports'));
    expect(listed, 'the conformance tests could be listed').toBeDefined();
    const stated = [...README.matchAll(/(?:of|suite's) (\d+) conformance tests/g)].map((m) => Number(m[1]));
    expect(stated.length).toBeGreaterThanOrEqual(3);
    for (const n of stated) expect(n).toBe(listed!.length);
  });

  test('the verdict lines shown: a module of every kind, counted as the coverage counts', () => {
    const every = computeCoverage({ results: [], kinds: ['telephony', 'delivery', 'payment', 'mgTransport', 'mgBot'], profile: true, failedChecks: 0, entries: catalogue().entries });
    const block = README.slice(README.indexOf('**The verdict line.**'));
    const lines = block.slice(0, block.indexOf('\n```\n', block.indexOf('```') + 3)).split('\n').filter((l) => l.startsWith('conformance: '));
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const line of lines) {
      const all = /CONFORMANT — all (\d+) applicable requirements/.exec(line);
      if (all) {
        expect(Number(all[1]), line).toBe(every.applicable);
        continue;
      }
      const m = /— (\d+) of (\d+) applicable requirements tested, (\d+) passed(?:, (\d+) failed)?(?:, (\d+) warned \(SHOULD\))?(?:; (\d+) not tested: ([^;(]*(?:\([^)]*\)[^;(]*)*))?/.exec(line);
      expect(m, line).not.toBeNull();
      const [tested = 0, applicable = 0, passed = 0, failed = 0, warned = 0, notTested = 0] = [m![1], m![2], m![3], m![4], m![5], m![6]].map((x) => Number(x ?? 0));
      expect(applicable, line).toBe(every.applicable);
      expect(passed + failed + warned, line).toBe(tested);
      expect(notTested, line).toBe(applicable - tested);
      const reasons = (m![7] ?? '').replace(/\([^)]*\)/g, '');
      expect([...reasons.matchAll(/(\d+) /g)].reduce((a, r) => a + Number(r[1]), 0), line).toBe(notTested);
      // Both halves count requirements: the head's failed requirements are the tested half's.
      const head = /FAIL \((?:(\d+) requirements? )?(?:and )?(?:(\d+) suite rules? )?failed\)/.exec(line);
      if (line.includes('FAIL (')) expect(Number(head?.[1] ?? 0), line).toBe(failed);
    }
  });
});
