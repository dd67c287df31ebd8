/**
 * A small POSIX tar (ustar) writer and reader for the certification bundle (`conformance bundle`,
 * `conformance verify`): regular files only, at the archive's root or in folders named in the
 * file names, gzipped with node:zlib. What it writes any `tar -xzf` reads; what it reads is what
 * it writes (a header whose checksum or magic is wrong, a link, a device, a truncated archive:
 * `TarError`).
 */
import { gunzipSync, gzipSync } from 'node:zlib';

export interface TarEntry {
  name: string;
  data: Buffer;
}

export class TarError extends Error {}

const BLOCK = 512;
/** The most a bundle unpacks to (1 GiB): a gzip that claims more is refused, not read into memory. */
const MAX_TAR_BYTES = 2 ** 30;

/** A number as the octal digits of a header field of `width` bytes (NUL-terminated). */
function octal(n: number, width: number): string {
  return `${n.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  const nameBytes = Buffer.from(name, 'utf8');
  if (nameBytes.length > 100) throw new TarError(`tar: the name ${name} is longer than 100 bytes`);
  nameBytes.copy(h, 0);
  h.write(octal(0o644, 8), 100, 'latin1'); // mode
  h.write(octal(0, 8), 108, 'latin1'); // uid
  h.write(octal(0, 8), 116, 'latin1'); // gid
  h.write(octal(size, 12), 124, 'latin1');
  h.write(octal(mtime, 12), 136, 'latin1');
  h.fill(0x20, 148, 156); // the checksum counts its own field as spaces
  h.write('0', 156, 'latin1'); // a regular file
  h.write('ustar\u000000', 257, 'latin1'); // magic "ustar\0" and version "00"
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return h;
}

/** The archive of `entries` (in their order), gzipped; every file dated `mtime` (seconds since 1970). */
export function writeTgz(entries: readonly TarEntry[], mtime: number): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    parts.push(header(e.name, e.data.length, Math.max(0, Math.floor(mtime))), e.data);
    const pad = (BLOCK - (e.data.length % BLOCK)) % BLOCK;
    if (pad > 0) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(2 * BLOCK)); // the end of the archive: two zero blocks
  return gzipSync(Buffer.concat(parts), { level: 9 });
}

/** A header field up to its first NUL. */
function field(h: Buffer, at: number, width: number): string {
  const raw = h.subarray(at, at + width);
  const nul = raw.indexOf(0);
  return raw.subarray(0, nul < 0 ? width : nul).toString('utf8');
}

function readOctal(h: Buffer, at: number, width: number, what: string): number {
  const text = field(h, at, width).trim();
  if (!/^[0-7]+$/.test(text)) throw new TarError(`not a tar archive: the ${what} of an entry is not an octal number`);
  return parseInt(text, 8);
}

/** The files of a gzipped tar archive, in their order. Throws TarError when it is none. */
export function readTgz(gz: Buffer): TarEntry[] {
  let tar: Buffer;
  try {
    tar = gunzipSync(gz, { maxOutputLength: MAX_TAR_BYTES });
  } catch (e) {
    throw new TarError(`not a gzip file (${(e as Error).message})`);
  }
  const entries: TarEntry[] = [];
  for (let at = 0; ; ) {
    if (at + BLOCK > tar.length) throw new TarError('not a tar archive: it ends without its end blocks (truncated?)');
    const h = tar.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) return entries;
    const stored = readOctal(h, 148, 8, 'checksum');
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
    if (sum !== stored) throw new TarError(`not a tar archive: the header at byte ${at} has a wrong checksum`);
    if (field(h, 257, 6) !== 'ustar') throw new TarError(`not a ustar archive: the header at byte ${at} has no ustar magic`);
    const prefix = field(h, 345, 155);
    const name = prefix ? `${prefix}/${field(h, 0, 100)}` : field(h, 0, 100);
    const type = String.fromCharCode(h[156]!);
    if (type !== '0' && type !== '\0') throw new TarError(`not a bundle: the entry ${name} is not a regular file (type ${JSON.stringify(type)})`);
    const size = readOctal(h, 124, 12, 'size');
    const start = at + BLOCK;
    if (start + size > tar.length) throw new TarError(`not a tar archive: the entry ${name} is cut short (truncated?)`);
    entries.push({ name, data: Buffer.from(tar.subarray(start, start + size)) });
    at = start + Math.ceil(size / BLOCK) * BLOCK;
  }
}
