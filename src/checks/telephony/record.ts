/**
 * The answer of a telephony module to a call's `recordUrl` (document, Calls from the system to a
 * telephony module: "`recordUrl` of a call | `clientId` | Audio with a correct Content-Type
 * header"; wire profile section 1: the clientId is the only credential of a callback, and a
 * module must not act on a request whose clientId is missing or unknown).
 *
 * Audio is recognised by its structure, never by the name in its address or the header it came
 * with: WAV (`RIFF` or `RF64`, then `WAVE`), MP3 (an `ID3` tag, or an MPEG audio frame header
 * with a valid version, layer, bitrate and sample rate), AAC in ADTS frames, Ogg (`OggS`), FLAC
 * (`fLaC`), MP4/M4A/3GP (`ftyp` at offset 4), WebM/Matroska (EBML `1A 45 DF A3`), AMR
 * (`#!AMR`), AIFF (`FORM` ... `AIFF`/`AIFC`), Sun/NeXT AU (`.snd`) and WMA (the ASF header
 * GUID). The Content-Type must be one of the names that format goes by.
 */
import { credited } from '../callbacks/acceptance.ts';
import type { Reply } from '../../client/callback-client.ts';
import { defineCheck, fail, notApplicable, pass, show, type Check, type Verdict } from '../check.ts';
import { describeReply } from '../callbacks/reply.ts';
import type { CaseOutcome } from '../case.ts';

export interface AudioFormat {
  /** `WAV`, `MP3`... */
  name: string;
  /** What recognised it: `RIFF....WAVE`. */
  signature: string;
  /** The media types this format is served as (lower case, without parameters). */
  types: readonly string[];
}

const WAV_TYPES = ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'] as const;
const MPEG_TYPES = ['audio/mpeg', 'audio/mp3', 'audio/mpeg3', 'audio/x-mpeg', 'audio/x-mp3', 'audio/x-mpeg-3'] as const;
const AAC_TYPES = ['audio/aac', 'audio/aacp', 'audio/x-aac'] as const;
const OGG_TYPES = ['audio/ogg', 'application/ogg', 'audio/opus', 'audio/vorbis', 'audio/x-ogg'] as const;
const FLAC_TYPES = ['audio/flac', 'audio/x-flac'] as const;
const MP4_TYPES = ['audio/mp4', 'audio/aac', 'audio/x-m4a', 'audio/m4a', 'audio/mp4a-latm'] as const;
const THREE_GPP_TYPES = ['audio/3gpp', 'audio/3gpp2'] as const;
const WEBM_TYPES = ['audio/webm', 'audio/x-matroska'] as const;
const AMR_TYPES = ['audio/amr', 'audio/3gpp'] as const;
const AMR_WB_TYPES = ['audio/amr-wb', 'audio/3gpp'] as const;
const AIFF_TYPES = ['audio/aiff', 'audio/x-aiff'] as const;
const AU_TYPES = ['audio/basic', 'audio/au', 'audio/x-au'] as const;
const WMA_TYPES = ['audio/x-ms-wma'] as const;

const ascii = (b: Buffer, from: number, to: number): string => b.subarray(from, to).toString('latin1');

/** The ASF header object GUID (WMA): 30 26 B2 75 8E 66 CF 11 A6 D9 00 AA 00 62 CE 6C. */
const ASF_GUID = Buffer.from([0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0x00, 0xaa, 0x00, 0x62, 0xce, 0x6c]);

/** An MPEG audio frame header at `at`: sync, a version and a layer that exist, a bitrate index that is neither free nor bad, a sample rate that exists. */
function mpegFrameAt(b: Buffer, at: number): boolean {
  if (at + 4 > b.length) return false;
  if (b[at] !== 0xff || (b[at + 1]! & 0xe0) !== 0xe0) return false;
  const version = (b[at + 1]! >> 3) & 0x03;
  const layer = (b[at + 1]! >> 1) & 0x03;
  const bitrate = (b[at + 2]! >> 4) & 0x0f;
  const rate = (b[at + 2]! >> 2) & 0x03;
  return version !== 0x01 && layer !== 0x00 && bitrate !== 0x00 && bitrate !== 0x0f && rate !== 0x03;
}

/** An ADTS (AAC) frame header at `at`: 12 sync bits, layer 00, a sampling index that exists. */
function adtsFrameAt(b: Buffer, at: number): boolean {
  if (at + 7 > b.length) return false;
  if (b[at] !== 0xff || (b[at + 1]! & 0xf6) !== 0xf0) return false;
  return ((b[at + 2]! >> 2) & 0x0f) < 13;
}

/** The audio format of these bytes, recognised by their structure; undefined when they are none of the known ones. */
export function sniffAudio(b: Buffer): AudioFormat | undefined {
  if (b.length < 4) return undefined;
  const head4 = ascii(b, 0, 4);
  if ((head4 === 'RIFF' || head4 === 'RF64') && b.length >= 12 && ascii(b, 8, 12) === 'WAVE') return { name: 'WAV', signature: `${head4}....WAVE`, types: WAV_TYPES };
  if (head4 === 'OggS') return { name: 'Ogg', signature: 'OggS', types: OGG_TYPES };
  if (head4 === 'fLaC') return { name: 'FLAC', signature: 'fLaC', types: FLAC_TYPES };
  if (head4 === '.snd') return { name: 'AU', signature: '.snd', types: AU_TYPES };
  if (head4 === 'FORM' && b.length >= 12 && (ascii(b, 8, 12) === 'AIFF' || ascii(b, 8, 12) === 'AIFC')) return { name: 'AIFF', signature: `FORM....${ascii(b, 8, 12)}`, types: AIFF_TYPES };
  if (b.length >= 9 && ascii(b, 0, 9) === '#!AMR-WB\n') return { name: 'AMR-WB', signature: '#!AMR-WB', types: AMR_WB_TYPES };
  if (b.length >= 6 && ascii(b, 0, 6) === '#!AMR\n') return { name: 'AMR', signature: '#!AMR', types: AMR_TYPES };
  if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return { name: 'WebM/Matroska', signature: 'EBML 1A 45 DF A3', types: WEBM_TYPES };
  if (b.length >= 12 && ascii(b, 4, 8) === 'ftyp') {
    const brand = ascii(b, 8, 12);
    if (brand.startsWith('3g')) return { name: '3GP', signature: `ftyp ${brand}`, types: [...THREE_GPP_TYPES, ...MP4_TYPES] };
    return { name: 'MP4/M4A', signature: `ftyp ${brand}`, types: MP4_TYPES };
  }
  if (b.length >= 16 && b.subarray(0, 16).equals(ASF_GUID)) return { name: 'WMA', signature: 'ASF header', types: WMA_TYPES };
  if (b.length >= 10 && ascii(b, 0, 3) === 'ID3' && b[3]! < 0xff && b[4]! < 0xff) return { name: 'MP3', signature: 'ID3', types: MPEG_TYPES };
  if (adtsFrameAt(b, 0)) return { name: 'AAC (ADTS)', signature: 'ADTS frame sync 0xFFF', types: AAC_TYPES };
  if (mpegFrameAt(b, 0)) return { name: 'MP3', signature: 'MPEG audio frame sync 0xFFE', types: MPEG_TYPES };
  return undefined;
}

/** The media type of a Content-Type header: lower case, without parameters; undefined when there is none. */
export function mediaType(contentType: string | undefined): string | undefined {
  const t = contentType?.split(';')[0]?.trim().toLowerCase();
  return t ? t : undefined;
}

/** The first bytes of a body, as a message shows them: hex, and the printable text. */
export function firstBytes(b: Buffer, n = 12): string {
  const head = b.subarray(0, n);
  const hex = [...head].map((x) => x.toString(16).padStart(2, '0')).join(' ');
  const text = head.toString('latin1').replace(/[^\x20-\x7e]/g, '.');
  return `${b.length} bytes beginning ${hex} (${JSON.stringify(text)})`;
}

/** A reply's status, Content-Type and body, as a record's message shows it (bytes, not text). */
export function describeRecordReply(reply: Reply): string {
  if (reply.status === undefined) return describeReply(reply);
  const ct = reply.headers['content-type'] ? ` (${reply.headers['content-type']})` : ' (no Content-Type)';
  const to = reply.status >= 300 && reply.status < 400 ? ` redirecting to ${JSON.stringify(reply.headers.location ?? '(no Location)')} (the suite follows no redirect)` : '';
  const audio = sniffAudio(reply.body);
  const body = reply.json !== undefined ? show(reply.json, 200) : reply.body.length === 0 ? 'an empty body' : audio ? `${reply.body.length} bytes of ${audio.name} (${audio.signature})` : firstBytes(reply.body);
  return `HTTP ${reply.status}${to}${ct} ${body}`;
}

export const ensureRecordIsAudioOfItsContentType = defineCheck<Reply>({
  name: 'ensureRecordIsAudioOfItsContentType',
  checks: "a call's recordUrl, fetched with the clientId, answers audio whose Content-Type names the format of its bytes",
  run(reply) {
    const evidence = [reply.exchange.id];
    if (reply.status === undefined) return notApplicable('no answer (ensureCallbackIsAnswered judges it)');
    const expected = 'HTTP 200 with the recording: audio bytes (WAV, MP3, Ogg, FLAC, MP4/M4A, AAC, WebM, AMR...) under a Content-Type that names their format';
    if (reply.status < 200 || reply.status >= 300 || reply.status === 204) return fail(describeRecordReply(reply), expected, evidence);
    const audio = sniffAudio(reply.body);
    if (!audio) return fail(`${describeRecordReply(reply)}: not audio of any known format`, expected, evidence);
    const type = mediaType(reply.headers['content-type']);
    if (!type) return fail(`${describeRecordReply(reply)}: ${audio.name} bytes without a Content-Type`, `a Content-Type of ${audio.name}: ${audio.types.join(', ')}`, evidence);
    if (!audio.types.includes(type)) return fail(`${describeRecordReply(reply)}: Content-Type ${type}, but the bytes are ${audio.name} (${audio.signature})`, `a Content-Type of ${audio.name}: ${audio.types.join(', ')}`, evidence);
    return pass(`${type}: ${reply.body.length} bytes of ${audio.name} (${audio.signature})`, evidence);
  },
});

export const ensureRefusedRecordGivesNoAudio = defineCheck<CaseOutcome>({
  name: 'ensureRefusedRecordGivesNoAudio',
  checks: "a call's recordUrl fetched with a missing or unknown clientId is refused, and gives no audio",
  run(o) {
    const { reply, case: c } = o;
    if (c.intent.kind !== 'refused') return notApplicable('a fetch with the clientId');
    const evidence = [reply.exchange.id];
    if (reply.status === undefined) return notApplicable('no answer (ensureCallbackIsAnswered judges it)');
    const sent = c.intent.clientId === 'missing' ? 'without a clientId' : 'with a clientId the module never gave';
    const expected = 'a refusal (401 or 403) without the recording: the clientId is the only credential of the request';
    const audio = sniffAudio(reply.body);
    if (reply.status >= 200 && reply.status < 300) return fail(`${describeRecordReply(reply)} ${sent}`, expected, evidence);
    if (audio) return fail(`${describeRecordReply(reply)} ${sent}: a refusal that carries the recording`, expected, evidence);
    return credited(o, pass(`${describeRecordReply(reply)} ${sent}`, evidence));
  },
});

/**
 * A rule of one reply over the recordings of a run (each fetched once): it fails on the first
 * recording that breaks it, naming its address; it passes when one held and none broke it.
 */
export function overRecordings(check: Check<Reply>): Check<ReadonlyArray<{ url: string; reply: Reply }>> {
  return {
    name: check.name,
    checks: check.checks,
    async run(fetched) {
      let held: Verdict | undefined;
      let count = 0;
      for (const [i, f] of fetched.entries()) {
        const v = await check.run(f.reply);
        if (v.outcome === 'fail') return { ...v, received: `recording ${i + 1} of ${fetched.length} (${f.url}): ${v.received ?? ''}` };
        if (v.outcome === 'pass') {
          held ??= v;
          count += 1;
        }
      }
      if (!held) return notApplicable(fetched.length === 0 ? 'no recording was fetched' : 'no recording exercised it');
      return pass(`held on ${count} of ${fetched.length} recording(s); the first: ${held.detail ?? ''}`, fetched.slice(0, 3).map((f) => f.reply.exchange.id));
    },
  };
}
