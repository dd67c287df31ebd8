/**
 * Reading callback payloads field by field. Every error names the field by its path
 * (`packages[0].weight must be greater than 0`), as the contract asks for wrong input.
 */
import { badRequest } from './http.ts';

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function optObject(o: Obj, key: string, path: string): Obj | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (!isObj(v)) throw badRequest(`${path} must be an object`);
  return v;
}

export function optArray(o: Obj, key: string, path: string): unknown[] | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw badRequest(`${path} must be an array`);
  return v;
}

export function optString(o: Obj, key: string, path: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') throw badRequest(`${path} must be a string`);
  return v;
}

export function reqString(o: Obj, key: string, path: string): string {
  const v = optString(o, key, path);
  if (v === undefined || v.trim() === '') throw badRequest(`${path} is required`);
  return v;
}

export function optNumber(o: Obj, key: string, path: string): number | undefined {
  const v = o[key];
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw badRequest(`${path} must be a number`);
  return n;
}

/** A number that must be > 0 when present. */
export function optPositive(o: Obj, key: string, path: string): number | undefined {
  const n = optNumber(o, key, path);
  if (n !== undefined && n <= 0) throw badRequest(`${path} must be greater than 0`);
  return n;
}

/** A number that must be >= 0 when present. */
export function optNonNegative(o: Obj, key: string, path: string): number | undefined {
  const n = optNumber(o, key, path);
  if (n !== undefined && n < 0) throw badRequest(`${path} must not be negative`);
  return n;
}

export function optBoolean(o: Obj, key: string, path: string): boolean | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === '1' || v === 1) return true;
  if (v === 'false' || v === '0' || v === 0) return false;
  throw badRequest(`${path} must be a boolean`);
}

export function optEnum<T extends string>(o: Obj, key: string, path: string, allowed: readonly T[]): T | undefined {
  const v = optString(o, key, path);
  if (v === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(v)) throw badRequest(`${path} must be one of ${allowed.join(', ')} (got ${JSON.stringify(v)})`);
  return v as T;
}

/** `Y-m-d H:i:s` or `Y-m-d`; returns the calendar day `Y-m-d`. */
export function optDate(o: Obj, key: string, path: string): string | undefined {
  const v = optString(o, key, path);
  if (v === undefined || v === '') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(v);
  if (!m) throw badRequest(`${path} must be a date (Y-m-d H:i:s)`);
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3])) throw badRequest(`${path} is not a valid date`);
  return `${m[1]}-${m[2]}-${m[3]}`;
}

/** Today as `Y-m-d` (local time of the module). */
export function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** `Y-m-d H:i:s` of a date (local time). */
export function dateTime(d: Date = new Date()): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** Adds days to a `Y-m-d` day. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return t.toISOString().slice(0, 10);
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
