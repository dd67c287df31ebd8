/**
 * What the suite keeps of a launched module's output: the end of each stream (stdout, stderr),
 * bounded in lines and characters for the whole run, narrowed again for the reports, and the one
 * line that says what a module said before it died (`lastWords`).
 */
import { StringDecoder } from 'node:string_decoder';

/** What a launched module's stream keeps for the whole run: its last lines, within these bounds. */
export const OUTPUT_BOUNDS = { maxLines: 5_000, maxChars: 512 * 1024, maxLineChars: 8 * 1024 };

/** What results.json and conformance.html show of each stream (the files in the output folder hold the whole tail). */
export const REPORT_BOUNDS = { maxLines: 200, maxChars: 32 * 1024 };

/** The end of one stream of the module's output, as the reports show it. */
export interface StreamTail {
  /** The last lines the module printed (a line not ended yet included), secrets redacted. */
  lines: string[];
  /** Lines the module printed on this stream in all. */
  totalLines: number;
  /** Lines printed before `lines` that are not kept. */
  droppedLines: number;
  /** Bytes of output not kept: the dropped lines, and the ends of lines longer than the line bound. */
  droppedBytes: number;
}

/** The launched module's stdout and stderr, for the whole run (results.json `run.moduleOutput`). */
export interface ModuleOutput {
  stdout: StreamTail;
  stderr: StreamTail;
}

/**
 * The end of one output stream, bounded in lines and characters (old lines dropped, counted), a
 * line longer than `maxLineChars` kept by its start. Lines split across chunks, and characters
 * split across bytes, are joined. `seq` orders the lines of several tails (stdout and stderr).
 */
export class OutputTail {
  private readonly maxLines: number;
  private readonly maxChars: number;
  private readonly maxLineChars: number;
  private readonly decoder = new StringDecoder('utf8');
  private entries: Array<{ seq: number; text: string }> = [];
  private head = 0;
  private chars = 0;
  private pending = '';
  private pendingCut = 0;
  private pendingSeq = -1;
  private droppedLines = 0;
  private droppedBytes = 0;
  private total = 0;

  constructor(bounds: { maxLines?: number; maxChars?: number; maxLineChars?: number } = {}, private readonly seq: () => number = counter()) {
    this.maxLines = bounds.maxLines ?? OUTPUT_BOUNDS.maxLines;
    this.maxChars = bounds.maxChars ?? OUTPUT_BOUNDS.maxChars;
    this.maxLineChars = Math.min(bounds.maxLineChars ?? OUTPUT_BOUNDS.maxLineChars, this.maxChars);
  }

  write(chunk: Buffer | string): void {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let from = 0;
    for (;;) {
      const nl = text.indexOf('\n', from);
      this.extend(text.slice(from, nl < 0 ? text.length : nl));
      if (nl < 0) break;
      this.endLine();
      from = nl + 1;
    }
  }

  /** The stream ended: a last line not ended is kept as it is. */
  end(): void {
    this.extend(this.decoder.end());
    if (this.pending.length > 0 || this.pendingCut > 0) this.endLine();
  }

  /** Adds a line of the suite's own (e.g. why the module could not start). */
  note(line: string): void {
    if (this.pending.length > 0 || this.pendingCut > 0) this.endLine();
    this.extend(line);
    this.endLine();
  }

  private extend(part: string): void {
    if (part.length === 0) return;
    if (this.pendingSeq < 0) this.pendingSeq = this.seq();
    const room = this.maxLineChars - this.pending.length;
    if (part.length <= room) this.pending += part;
    else {
      this.pending += part.slice(0, Math.max(room, 0));
      const cut = part.slice(Math.max(room, 0));
      this.pendingCut += cut.length;
      this.droppedBytes += Buffer.byteLength(cut);
    }
  }

  private endLine(): void {
    const text = this.pendingCut > 0 ? `${this.pending}… (${this.pendingCut} more characters)` : this.pending.replace(/\r$/, '');
    this.push({ seq: this.pendingSeq < 0 ? this.seq() : this.pendingSeq, text });
    this.pending = '';
    this.pendingCut = 0;
    this.pendingSeq = -1;
  }

  private push(entry: { seq: number; text: string }): void {
    this.total++;
    this.entries.push(entry);
    this.chars += entry.text.length;
    while (this.entries.length - this.head > this.maxLines || (this.chars > this.maxChars && this.entries.length - this.head > 1)) {
      const old = this.entries[this.head++]!;
      this.chars -= old.text.length;
      this.droppedLines++;
      this.droppedBytes += Buffer.byteLength(old.text) + 1;
    }
    // Dropped entries are let go now and then, not one by one (a flood stays linear).
    if (this.head > 1_024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  /** The kept lines with their order among the module's streams, a line not ended yet last. */
  ordered(): Array<{ seq: number; text: string }> {
    const kept = this.entries.slice(this.head);
    if (this.pending.length > 0 || this.pendingCut > 0) kept.push({ seq: this.pendingSeq, text: this.pendingCut > 0 ? `${this.pending}… (${this.pendingCut} more characters)` : this.pending });
    return kept;
  }

  /** The kept lines, a line not ended yet last. */
  lines(): string[] {
    return this.ordered().map((e) => e.text);
  }

  /** What was not kept: whole lines from the start, and bytes (those lines', and the ends of over-long lines). */
  dropped(): { lines: number; bytes: number } {
    return { lines: this.droppedLines, bytes: this.droppedBytes };
  }

  /** Lines printed in all (a line not ended yet included). */
  totalLines(): number {
    return this.total + (this.pending.length > 0 || this.pendingCut > 0 ? 1 : 0);
  }

  /** The end of the stream, each line passed through `map` (the redactor) first, within `bounds` (see `narrow`). */
  snapshot(bounds: { maxLines?: number; maxChars?: number } = {}, map: (line: string) => string = (l) => l): StreamTail {
    return narrow({ lines: this.lines().map(map), totalLines: this.totalLines(), droppedLines: this.droppedLines, droppedBytes: this.droppedBytes }, bounds);
  }
}

/** The end of a stream's tail within narrower bounds: its last lines, what is left out counted as dropped. */
export function narrow(tail: StreamTail, bounds: { maxLines?: number; maxChars?: number }): StreamTail {
  const maxLines = bounds.maxLines ?? Number.POSITIVE_INFINITY;
  const maxChars = bounds.maxChars ?? Number.POSITIVE_INFINITY;
  const lines: string[] = [];
  let chars = 0;
  for (let i = tail.lines.length - 1; i >= 0 && lines.length < maxLines; i--) {
    let line = tail.lines[i]!;
    if (chars + line.length > maxChars) {
      if (lines.length > 0) break;
      line = `${line.slice(0, maxChars)}… (${line.length - maxChars} more characters)`;
    }
    lines.unshift(line);
    chars += line.length;
  }
  const left = tail.lines.slice(0, tail.lines.length - lines.length);
  return {
    lines,
    totalLines: tail.totalLines,
    droppedLines: tail.droppedLines + left.length,
    droppedBytes: tail.droppedBytes + left.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0),
  };
}

/** A shared order for the lines of several tails (a launched module's stdout and stderr). */
export function counter(): () => number {
  let n = 0;
  return () => n++;
}

/** Node's last line when it dies of an uncaught error (`Node.js v20.20.2`). */
const NODE_TRAILER = /^Node\.js v\d+\.\d+\.\d+\s*$/;

/** Lines that say nothing of why: stack frames, source excerpts' carets, the error object's fields, require stacks. */
const NOISE = [
  /^\s*$/,
  NODE_TRAILER,
  /^\s+at\s/,
  /^\s*\^+\s*$/,
  /^\s*[{}[\]]\s*,?\s*$/,
  /^\s+[\w$]+: .*,?$/,
  /^Require stack:$/,
  /^- \S/,
  /^(node:)?[\w./\\:-]+:\d+$/,
  /^\s+File ".*", line \d+/,
  /^Traceback \(most recent call last\):$/,
  /^goroutine \d+ \[/,
];

/** A line that states an error: `Error: ...`, `TypeError [ERR_X]: ...`, `ModuleNotFoundError: ...`, `panic: ...`. */
const ERROR_LINE = /(?:^|[\s:\]])(?:[A-Za-z_$][\w$.]*)?(?:Error|Exception)(?:\s*\[[^\]]*\])?: \S|^\s*(?:panic|fatal error|FATAL|Fatal):\s/;

/** Removes ANSI escapes and control characters, folds whitespace: one line. */
function oneLine(s: string): string {
  return s
    .replace(/\u001b\[[0-9;?]*[ -\/]*[@-~]/g, '')
    .replace(/\u001b[\]P^_][^\u0007\u001b]*(\u0007|\u001b\\)?/g, '')
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * What a module said before it died, in one bounded line: the last line of its output that
 * states an error (`Error: Cannot find module 'x'`), else its last meaningful lines; never
 * Node's version trailer, blank lines, stack frames or the error object's fields. Undefined when
 * it said nothing meaningful.
 */
export function lastWords(lines: readonly string[], max = 300): string | undefined {
  const meaningful = lines.map(oneLine).filter((l, i) => l.length > 0 && !NOISE.some((re) => re.test(lines[i]!)) && !NODE_TRAILER.test(l));
  if (meaningful.length === 0) return undefined;
  const error = [...meaningful].reverse().find((l) => ERROR_LINE.test(l));
  const said = error ?? meaningful.slice(-2).join(' | ');
  return said.length > max ? `${said.slice(0, max - 1)}…` : said;
}
