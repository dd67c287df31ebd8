/**
 * Slots of a batch (src/run/batch-row.ts): one worker plays several rows one after the other, so
 * that a row costs its session and module, not a worker's start (about 1.3 CPU-s: Playwright's
 * worker, the suite's modules, the contract). Playwright gives a worker to each project, file and
 * repeat, so a slot's rows are declared in one file (`SLOT_ENTRY`): the conformance spec files
 * are loaded once while their declarations are recorded (`recordFile`), then each row declares
 * its own selected tests again (`declareRow`), as a run of it would declare them, inside a
 * describe block of its own.
 */
import { testKey } from './batch-row.ts';

/** A declaration of a spec file: `test(...)` or `test.describe(...)`, with its arguments. */
export interface Declared {
  kind: 'test' | 'describe';
  args: unknown[];
}

/** While a spec file is loaded for a slot: its declarations, kept to be made once per row. */
let recording: Declared[] | undefined;
/** While a row's tests are declared: the tests its run selects (all when undefined), the file, the describe titles around. */
let choosing: { keys: ReadonlySet<string> | undefined; file: string; path: string[] } | undefined;

/** The arguments of a describe block with its body wrapped (the body is its last argument). */
function withBody(args: unknown[], wrap: (body: () => void) => () => void): unknown[] {
  const body = args[args.length - 1] as () => void;
  return [...args.slice(0, -1), wrap(body)];
}

/**
 * The test function of the conformance specs in a slot's worker and runner: it records while a
 * spec file is loaded for a slot, declares a row's selected tests only while a row is declared,
 * and is Playwright's own otherwise (the slot's own describe blocks, every call while tests run).
 */
export function slotTestType<T extends (...args: never[]) => unknown>(base: T): T {
  const describe = new Proxy((base as unknown as { describe: (...args: unknown[]) => unknown }).describe, {
    apply(target, self, args: unknown[]) {
      if (recording) return void recording.push({ kind: 'describe', args });
      if (!choosing) return Reflect.apply(target, self, args);
      const now = choosing;
      return Reflect.apply(
        target,
        self,
        withBody(args, (body) => () => {
          now.path.push(String(args[0]));
          try {
            body();
          } finally {
            now.path.pop();
          }
        }),
      );
    },
  });
  return new Proxy(base, {
    apply(target, self, args: unknown[]) {
      if (recording) return void recording.push({ kind: 'test', args });
      if (choosing?.keys && !choosing.keys.has(testKey(choosing.file, [...choosing.path, String(args[0])]))) return undefined;
      return Reflect.apply(target, self, args);
    },
    get(target, property, receiver) {
      return property === 'describe' ? describe : Reflect.get(target, property, receiver);
    },
  });
}

/** Loads a spec file (`load`: its import) for a slot: what it declares is recorded, not declared. */
export async function recordFile(load: () => Promise<unknown>): Promise<readonly Declared[]> {
  const declared: Declared[] = [];
  recording = declared;
  try {
    await load();
  } finally {
    recording = undefined;
  }
  return declared;
}

/** Whether a row whose run selects `keys` (all when undefined) has a test in the spec file `file`. */
export const selectsIn = (file: string, keys: ReadonlySet<string> | undefined): boolean => !keys || [...keys].some((k) => k.startsWith(testKey(file, [''])));

/**
 * Declares a spec file's recorded tests for a row, those its run selects (`keys`; all when
 * undefined), through the slot's test function `test`.
 */
export function declareFile(test: (...args: never[]) => unknown, file: string, declared: readonly Declared[], keys: ReadonlySet<string> | undefined): void {
  choosing = { keys, file, path: [] };
  try {
    const call = test as unknown as ((...args: unknown[]) => unknown) & { describe: (...args: unknown[]) => unknown };
    for (const d of declared) {
      if (d.kind === 'test') call(...d.args);
      else call.describe(...d.args);
    }
  } finally {
    choosing = undefined;
  }
}
