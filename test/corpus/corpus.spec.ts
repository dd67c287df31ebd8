/**
 * The corpus of real registrations (see README.md beside this file): every registration that
 * official public modules send must pass every registration check of the suite, with the wire
 * profile and with the document alone. A failure here means a check is stricter than the
 * platform, or the transcription is wrong; never that the module is wrong.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from '@playwright/test';
import { judgeRegistration } from '../../src/checks/registration/judge.ts';
import { declaredKinds, MODULE_KINDS } from '../../src/contract/kinds.ts';

const CORPUS_DIR = path.dirname(fileURLToPath(import.meta.url));

interface CorpusFile {
  module: string;
  kind: string[];
  source: { repository: string; paths: string[]; commit?: string };
  notes: string;
  registration: Record<string, unknown>;
  callbackReplies?: Record<string, unknown>;
}

const TOP_LEVEL_KEYS = ['module', 'kind', 'source', 'notes', 'registration', 'callbackReplies'];
const SOURCE_KEYS = ['repository', 'paths', 'commit'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;

/** The minimal shape of a corpus file; returns the problems found (empty when the file conforms). */
function shapeProblems(data: unknown): string[] {
  const problems: string[] = [];
  if (!isObject(data)) return ['the file is not a JSON object'];
  for (const key of Object.keys(data)) if (!TOP_LEVEL_KEYS.includes(key)) problems.push(`unknown top-level key "${key}"`);
  if (!isNonEmptyString(data.module)) problems.push('"module" must be a non-empty string');
  const kind = data.kind;
  if (!Array.isArray(kind) || kind.length === 0) problems.push('"kind" must be a non-empty array');
  else {
    for (const k of kind) if (!(MODULE_KINDS as readonly unknown[]).includes(k)) problems.push(`"kind" holds ${JSON.stringify(k)}, not one of ${MODULE_KINDS.join(', ')}`);
    if (new Set(kind).size !== kind.length) problems.push('"kind" repeats a value');
  }
  const source = data.source;
  if (!isObject(source)) problems.push('"source" must be an object');
  else {
    for (const key of Object.keys(source)) if (!SOURCE_KEYS.includes(key)) problems.push(`unknown key "source.${key}"`);
    if (!isNonEmptyString(source.repository) || !/^[\w.-]+\/[\w.-]+$/.test(source.repository)) problems.push('"source.repository" must be "owner/name"');
    if (!Array.isArray(source.paths) || source.paths.length === 0 || !source.paths.every(isNonEmptyString)) problems.push('"source.paths" must be a non-empty array of non-empty strings');
    if (source.commit !== undefined && (typeof source.commit !== 'string' || !/^[0-9a-f]{40}$/.test(source.commit))) problems.push('"source.commit", when present, must be a 40-digit lowercase hex sha');
  }
  if (!isNonEmptyString(data.notes)) problems.push('"notes" must be a non-empty string');
  const registration = data.registration;
  if (!isObject(registration)) problems.push('"registration" must be an object');
  else if (Array.isArray(kind)) {
    const declared = declaredKinds(registration).sort();
    const listed = [...kind].map(String).sort();
    if (JSON.stringify(declared) !== JSON.stringify(listed)) problems.push(`"kind" is ${JSON.stringify(listed)} but registration.integrations declares ${JSON.stringify(declared)}`);
  }
  if (data.callbackReplies !== undefined && !isObject(data.callbackReplies)) problems.push('"callbackReplies", when present, must be an object');
  return problems;
}

const files = fs
  .readdirSync(CORPUS_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

test('the corpus holds registrations of every module kind', () => {
  const kinds = new Set<string>();
  for (const file of files) {
    const data = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, file), 'utf8')) as { kind?: unknown };
    if (Array.isArray(data.kind)) for (const k of data.kind) kinds.add(String(k));
  }
  expect([...MODULE_KINDS].filter((k) => !kinds.has(k)), 'kinds without a real registration in test/corpus/').toEqual([]);
});

for (const file of files) {
  test.describe(`corpus ${file}`, () => {
    const raw = fs.readFileSync(path.join(CORPUS_DIR, file), 'utf8');

    test('is a well-formed corpus file', () => {
      let data: unknown;
      expect(() => (data = JSON.parse(raw)), `${file} is not valid JSON`).not.toThrow();
      expect(shapeProblems(data), `${file} does not have the corpus-file shape (see test/corpus/README.md)`).toEqual([]);
    });

    for (const profile of [true, false]) {
      test(`passes every registration check ${profile ? 'with the wire profile' : 'with the document alone'}`, async () => {
        const data = JSON.parse(raw) as CorpusFile;
        test.skip(!isObject(data.registration), 'no registration object (see the shape test)');
        const results = await judgeRegistration(data.registration, { profile });
        const failures = results.filter((r) => r.status === 'failed').map((r) => `${r.check} [${r.requirements.join(', ')}]: ${r.message}`);
        expect(
          failures,
          `${file} (${data.module}) is a real registration, so every registration check must accept it ${profile ? 'with' : 'without'} the profile; failing checks:\n${failures.join('\n')}`,
        ).toEqual([]);
      });
    }
  });
}
