/**
 * Binary documents built by hand, no dependency: PDF 1.4 (print), ZIP with stored entries
 * (several printed documents), WAV PCM (call recordings), and the module's SVG logo.
 */
import zlib from 'node:zlib';

// ---------------------------------------------------------------- PDF

/** Makes a line safe inside a PDF literal string (ASCII only; parentheses and backslash escaped). */
function pdfText(line: string): string {
  return line
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '?')
    .replace(/\\/g, '\\\\')
    .replace(/\(/g, '\\(')
    .replace(/\)/g, '\\)');
}

/**
 * A valid PDF 1.4: one A4 page per entry of `pages`, each page a title line and text lines in
 * Helvetica. Cross-reference offsets are computed from the bytes written.
 */
export function buildPdf(pages: { title: string; lines: string[] }[], docTitle = 'Document'): Buffer {
  if (pages.length === 0) throw new Error('a PDF needs at least one page');
  const chunks: Buffer[] = [];
  let length = 0;
  const write = (s: string | Buffer): void => {
    const b = typeof s === 'string' ? Buffer.from(s, 'latin1') : s;
    chunks.push(b);
    length += b.length;
  };
  // Object numbers: 1 catalog, 2 pages, 3 font, 4 info, then (page, content) per page.
  const pageObj = (i: number): number => 5 + i * 2;
  const contentObj = (i: number): number => 6 + i * 2;
  const count = 4 + pages.length * 2;
  const offsets: number[] = new Array<number>(count + 1).fill(0);
  const object = (n: number, body: string): void => {
    offsets[n] = length;
    write(`${n} 0 obj\n${body}\nendobj\n`);
  };

  write('%PDF-1.4\n');
  write(Buffer.from([0x25, 0xe2, 0xe3, 0xcf, 0xd3, 0x0a])); // binary marker comment
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, `<< /Type /Pages /Kids [${pages.map((_p, i) => `${pageObj(i)} 0 R`).join(' ')}] /Count ${pages.length} >>`);
  object(3, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  object(4, `<< /Title (${pdfText(docTitle)}) /Producer (reference-module) >>`);
  pages.forEach((page, i) => {
    object(pageObj(i), `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentObj(i)} 0 R >>`);
    const ops = ['BT', '/F1 18 Tf', '56 780 Td', `(${pdfText(page.title)}) Tj`, '/F1 11 Tf', '16 TL', 'T*', 'T*'];
    for (const line of page.lines.slice(0, 45)) ops.push(`(${pdfText(line)}) Tj`, 'T*');
    ops.push('ET');
    const stream = `${ops.join('\n')}\n`;
    object(contentObj(i), `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}endstream`);
  });
  const xref = length;
  write(`xref\n0 ${count + 1}\n0000000000 65535 f \n`);
  for (let n = 1; n <= count; n++) write(`${String(offsets[n]).padStart(10, '0')} 00000 n \n`);
  write(`trailer\n<< /Size ${count + 1} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(chunks);
}

// ---------------------------------------------------------------- ZIP

let crcTable: Uint32Array | undefined;

/** CRC-32 (IEEE), from node:zlib when it has it (Node >= 20.15), else computed. */
export function crc32(data: Buffer): number {
  const native = (zlib as unknown as { crc32?: (d: Buffer) => number }).crc32;
  if (typeof native === 'function') return native(data) >>> 0;
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of data) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function dosDateTime(d: Date): { time: number; date: number } {
  const time = (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2);
  const date = ((Math.max(d.getFullYear(), 1980) - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate();
  return { time, date };
}

/** A ZIP archive with stored (uncompressed) entries, correct CRC-32 and a central directory. */
export function buildZip(entries: { name: string; data: Buffer }[], when: Date = new Date()): Buffer {
  const { time, date } = dosDateTime(when);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const crc = crc32(entry.data);
    const size = entry.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // flags: UTF-8 names
    local.writeUInt16LE(0, 8); // method: stored
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(size, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, entry.data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // version made by
    central.writeUInt16LE(20, 6); // version needed
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(size, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30); // extra
    central.writeUInt16LE(0, 32); // comment
    central.writeUInt16LE(0, 34); // disk
    central.writeUInt16LE(0, 36); // internal attributes
    central.writeUInt32LE(0, 38); // external attributes
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + size;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(0, 20);
  return Buffer.concat([...locals, directory, end]);
}

// ---------------------------------------------------------------- WAV

/** A RIFF/WAVE file, PCM 16-bit mono: a sine tone with short fades (no clicks). */
export function buildWav({ seconds = 0.5, frequency = 440, sampleRate = 8000, amplitude = 0.5 } = {}): Buffer {
  const samples = Math.max(1, Math.round(seconds * sampleRate));
  const dataBytes = samples * 2;
  const buf = Buffer.alloc(44 + dataBytes);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + dataBytes, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16); // fmt chunk size
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(1, 22); // mono
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * 2, 28); // byte rate
  buf.writeUInt16LE(2, 32); // block align
  buf.writeUInt16LE(16, 34); // bits per sample
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(dataBytes, 40);
  const fade = Math.min(Math.floor(sampleRate * 0.01), Math.floor(samples / 2));
  for (let i = 0; i < samples; i++) {
    const envelope = fade > 0 ? Math.min(1, i / fade, (samples - 1 - i) / fade) : 1;
    const v = Math.sin((2 * Math.PI * frequency * i) / sampleRate) * amplitude * envelope;
    buf.writeInt16LE(Math.round(v * 32767), 44 + i * 2);
  }
  return buf;
}

// ---------------------------------------------------------------- logo

export const LOGO_SVG = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
  <rect width="64" height="64" rx="12" fill="#2b6cb0"/>
  <text x="32" y="41" font-family="Helvetica, Arial, sans-serif" font-size="24" fill="#fff" text-anchor="middle">RM</text>
</svg>
`;
