/**
 * Values the suite invents (the clientId of a probe, ids, timestamps) come from the run's seed
 * too, so that one seed replays a run exactly: each is drawn by fast-check from the seed mixed
 * with what it is for, so that two inventions of one run differ.
 */
import fc from 'fast-check';
import { matching } from './matching.ts';

/** A 32-bit hash of a label (FNV-1a). */
function hash(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** One value of `arbitrary` for this seed and purpose: the same for the same seed and purpose. */
export function invent<T>(seed: number, purpose: string, arbitrary: fc.Arbitrary<T>): T {
  return fc.sample(arbitrary, { seed: (seed ^ hash(purpose)) >>> 0, numRuns: 1 })[0]!;
}

/** A hexadecimal token (`length` characters) for this seed and purpose. */
export const inventedHex = (seed: number, purpose: string, length = 12): string => invent(seed, purpose, matching(new RegExp(`^[0-9a-f]{${length}}$`)));
