import type { EventEmitter } from 'node:events';

/**
 * The first item, already recorded in `backlog` or announced later as `event`, that satisfies
 * `predicate`; undefined when none comes within `timeoutMs`.
 */
export function waitForMatch<T>(emitter: EventEmitter, event: string, backlog: readonly T[], predicate: (item: T) => boolean, timeoutMs: number): Promise<T | undefined> {
  const found = backlog.find(predicate);
  if (found !== undefined) return Promise.resolve(found);
  return new Promise((resolve) => {
    const onItem = (item: T): void => {
      if (predicate(item)) done(item);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    const done = (item: T | undefined): void => {
      clearTimeout(timer);
      emitter.off(event, onItem);
      resolve(item);
    };
    emitter.on(event, onItem);
  });
}
