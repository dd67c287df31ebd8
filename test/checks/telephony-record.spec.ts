/**
 * The recordUrl rules on canned replies: audio recognised by its structure (each common format,
 * and bytes that only look like one), its Content-Type among the names of that format; a fetch
 * with a missing or unknown clientId refused, without the audio; the rule over every recording.
 */
import { test, expect } from '@playwright/test';
import type { Reply } from '../../src/client/callback-client.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { CaseOutcome } from '../../src/checks/case.ts';
import { ensureRecordIsAudioOfItsContentType, ensureRefusedRecordGivesNoAudio, mediaType, overRecordings, sniffAudio } from '../../src/checks/telephony/record.ts';
import { buildWav } from '../../examples/reference-module/documents.ts';
import { propertyChecks } from '../../src/properties/registry.ts';
import { RECORD_REFUSED } from '../../src/checks/telephony/applications.ts';

const run = async (check: { run(s: never): unknown }, s: unknown) => (await check.run(s as never)) as { outcome: string; received?: string; expected?: string; detail?: string };

const WAV = buildWav({ seconds: 0.1 });
const pad = (head: Buffer | number[], n = 64): Buffer => Buffer.concat([Buffer.from(head), Buffer.alloc(n)]);
const ascii = (s: string, n = 64): Buffer => pad(Buffer.from(s, 'latin1'), n);

/** A sample of each format: its first bytes (the rest zeros), its name, a Content-Type it is served as. */
const SAMPLES: Array<{ bytes: Buffer; name: string; type: string }> = [
  { bytes: WAV, name: 'WAV', type: 'audio/wav' },
  { bytes: ascii('RF64\xff\xff\xff\xffWAVEds64'), name: 'WAV', type: 'audio/vnd.wave' },
  { bytes: ascii('ID3\x04\x00\x00\x00\x00\x00\x00'), name: 'MP3', type: 'audio/mpeg' },
  // MPEG-1 layer III, 128 kbit/s, 44.1 kHz.
  { bytes: pad([0xff, 0xfb, 0x90, 0x64]), name: 'MP3', type: 'audio/mp3' },
  // AAC in ADTS, MPEG-4, no CRC, 44.1 kHz.
  { bytes: pad([0xff, 0xf1, 0x50, 0x80, 0x01, 0x7f, 0xfc]), name: 'AAC (ADTS)', type: 'audio/aac' },
  { bytes: ascii('OggS\x00\x02'), name: 'Ogg', type: 'audio/ogg' },
  { bytes: ascii('OggS\x00\x02'), name: 'Ogg', type: 'application/ogg' },
  { bytes: ascii('OggS\x00\x02'), name: 'Ogg', type: 'audio/opus' },
  { bytes: ascii('fLaC\x00\x00\x00\x22'), name: 'FLAC', type: 'audio/x-flac' },
  { bytes: ascii('\x00\x00\x00\x20ftypM4A \x00\x00\x00\x00'), name: 'MP4/M4A', type: 'audio/x-m4a' },
  { bytes: ascii('\x00\x00\x00\x20ftypisom\x00\x00\x02\x00'), name: 'MP4/M4A', type: 'audio/mp4' },
  { bytes: ascii('\x00\x00\x00\x1cftyp3gp4\x00\x00\x00\x00'), name: '3GP', type: 'audio/3gpp' },
  { bytes: pad([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81]), name: 'WebM/Matroska', type: 'audio/webm' },
  { bytes: ascii('#!AMR\n'), name: 'AMR', type: 'audio/amr' },
  { bytes: ascii('#!AMR-WB\n'), name: 'AMR-WB', type: 'audio/amr-wb' },
  { bytes: ascii('FORM\x00\x00\x10\x00AIFFCOMM'), name: 'AIFF', type: 'audio/x-aiff' },
  { bytes: ascii('.snd\x00\x00\x00\x18'), name: 'AU', type: 'audio/basic' },
  { bytes: pad([0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0x00, 0xaa, 0x00, 0x62, 0xce, 0x6c]), name: 'WMA', type: 'audio/x-ms-wma' },
];

function reply(status: number | undefined, contentType: string | undefined, body: Buffer, id = 'x1'): Reply {
  if (status === undefined) return { exchange: { id } as Exchange, headers: {}, body: Buffer.alloc(0), error: 'socket hang up' };
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { exchange: { id } as Exchange, status, headers: contentType ? { 'content-type': contentType } : {}, body, ...(json !== undefined ? { json } : {}) };
}

test('audio is recognised by its structure, each common format', () => {
  for (const s of SAMPLES) expect(sniffAudio(s.bytes)?.name, `${s.name} as ${s.type}`).toBe(s.name);
});

test('bytes that are no audio, or only look like it, are not taken for audio', () => {
  const none = [
    Buffer.alloc(0),
    Buffer.from('RIFF'),
    ascii('RIFF\x00\x00\x00\x00AVI LIST'), // a RIFF that is video
    ascii('FORM\x00\x00\x00\x00ILBM'), // an IFF that is an image
    ascii('%PDF-1.4\n'),
    ascii('PK\x03\x04'),
    ascii('{"success":false,"errorMsg":"unknown call"}'),
    ascii('<html><body>Not found</body></html>'),
    pad([0xff, 0xd8, 0xff, 0xe0]), // JPEG: sync-like, but layer 00 and not ADTS
    pad([0xff, 0xfb, 0xf0, 0x64]), // MPEG frame with the bad bitrate index 1111
    pad([0xff, 0xfb, 0x9c, 0x64]), // MPEG frame with the reserved sample rate 11
    pad([0xff, 0xeb, 0x90, 0x64]), // MPEG frame of the reserved version 01
  ];
  for (const b of none) expect(sniffAudio(b), b.subarray(0, 12).toString('latin1')).toBeUndefined();
});

test('a Content-Type is read without its parameters, whatever its case', () => {
  expect(mediaType('Audio/WAV; charset=binary')).toBe('audio/wav');
  expect(mediaType(' audio/mpeg ')).toBe('audio/mpeg');
  expect(mediaType('')).toBeUndefined();
  expect(mediaType(undefined)).toBeUndefined();
});

test('a recording is audio under a Content-Type that names its format', async () => {
  for (const s of SAMPLES) expect((await run(ensureRecordIsAudioOfItsContentType, reply(200, s.type, s.bytes))).outcome, `${s.name} as ${s.type}`).toBe('pass');
  expect((await run(ensureRecordIsAudioOfItsContentType, reply(200, 'Audio/X-WAV; name="r.wav"', WAV))).outcome).toBe('pass');
  // The wrong name for its bytes.
  const mpeg = await run(ensureRecordIsAudioOfItsContentType, reply(200, 'audio/mpeg', WAV));
  expect(mpeg.outcome).toBe('fail');
  expect(mpeg.received).toContain('Content-Type audio/mpeg, but the bytes are WAV (RIFF....WAVE)');
  expect(mpeg.expected).toContain('audio/wav, audio/x-wav, audio/wave, audio/vnd.wave');
  for (const type of ['application/octet-stream', 'video/webm', 'audio/ogg', 'text/plain']) expect((await run(ensureRecordIsAudioOfItsContentType, reply(200, type, WAV))).outcome, type).toBe('fail');
  expect((await run(ensureRecordIsAudioOfItsContentType, reply(200, 'audio/wav', SAMPLES[5]!.bytes))).outcome).toBe('fail');
  // No Content-Type at all.
  expect((await run(ensureRecordIsAudioOfItsContentType, reply(200, undefined, WAV))).received).toContain('without a Content-Type');
  // Not audio: an error body, a page, nothing.
  const notAudio = await run(ensureRecordIsAudioOfItsContentType, reply(200, 'audio/wav', Buffer.from('<html>gone</html>')));
  expect(notAudio.outcome).toBe('fail');
  expect(notAudio.received).toContain('not audio of any known format');
  expect((await run(ensureRecordIsAudioOfItsContentType, reply(204, 'audio/wav', Buffer.alloc(0)))).outcome).toBe('fail');
  // Refused, missing, redirected elsewhere (the suite follows no redirect).
  expect((await run(ensureRecordIsAudioOfItsContentType, reply(404, 'application/json', Buffer.from('{"success":false,"errorMsg":"no recording"}')))).outcome).toBe('fail');
  const moved = { ...reply(302, 'text/plain', Buffer.from('Found')), headers: { location: 'https://cdn.example/r.wav' } };
  expect((await run(ensureRecordIsAudioOfItsContentType, moved)).received).toContain('redirecting to "https://cdn.example/r.wav"');
  // No answer: the answered rule's.
  expect((await run(ensureRecordIsAudioOfItsContentType, reply(undefined, undefined, Buffer.alloc(0)))).outcome).toBe('notApplicable');
});

test('a recording fetched without the clientId, or with an unknown one, is refused without the audio', async () => {
  const probe = (clientId: 'missing' | 'unknown', r: Reply): CaseOutcome => ({ case: { callback: 'telephony.record', payload: {}, url: 'http://m.example/r/1.wav', intent: { kind: 'refused', clientId } }, reply: r, module: {}, profile: true, accepted: 'x-authorised' });
  const refusal = Buffer.from('{"success":false,"errorMsg":"clientId is unknown"}');
  expect((await run(ensureRefusedRecordGivesNoAudio, probe('missing', reply(401, 'application/json', refusal)))).outcome).toBe('pass');
  expect((await run(ensureRefusedRecordGivesNoAudio, probe('unknown', reply(403, 'application/json', refusal)))).outcome).toBe('pass');
  // A refusal of another status is still a refusal (the 401/403 rule is a SHOULD of its own).
  expect((await run(ensureRefusedRecordGivesNoAudio, probe('unknown', reply(404, 'text/plain', Buffer.from('not found'))))).outcome).toBe('pass');
  const served = await run(ensureRefusedRecordGivesNoAudio, probe('missing', reply(200, 'audio/wav', WAV)));
  expect(served.outcome).toBe('fail');
  expect(served.received).toContain('of WAV (RIFF....WAVE) without a clientId');
  expect((await run(ensureRefusedRecordGivesNoAudio, probe('unknown', reply(200, 'application/json', Buffer.from('{"success":false}'))))).received).toContain('with a clientId the module never gave');
  // A refusal status that still carries the recording.
  const leaked = await run(ensureRefusedRecordGivesNoAudio, probe('unknown', reply(403, 'audio/wav', WAV)));
  expect(leaked.outcome).toBe('fail');
  expect(leaked.received).toContain('a refusal that carries the recording');
  expect((await run(ensureRefusedRecordGivesNoAudio, probe('missing', reply(undefined, undefined, Buffer.alloc(0))))).outcome).toBe('notApplicable');
  // A refusal proves nothing unless the same fetch with the clientId was accepted in the run (issue 31, item 4).
  const uncredited = await run(ensureRefusedRecordGivesNoAudio, { ...probe('missing', reply(401, 'application/json', refusal)), accepted: undefined });
  expect(uncredited.outcome).toBe('notApplicable');
  // Not a probe: not this rule's.
  expect((await run(ensureRefusedRecordGivesNoAudio, { ...probe('missing', reply(200, 'audio/wav', WAV)), case: { callback: 'telephony.record', payload: {}, intent: { kind: 'valid' } } })).outcome).toBe('notApplicable');
  expect(propertyChecks(RECORD_REFUSED, true).map((c) => [c.check.name, c.app.requirements.join(',')])).toEqual([
    ['ensureRefusedRecordGivesNoAudio', 'WIRE-GEN-BAD-CLIENTID-NO-ACTION'],
    ['ensureCallbackIsAnswered', ''],
  ]);
});

test('over every recording: the first that breaks the rule is named; it holds when all do', async () => {
  const good = (i: number) => ({ url: `http://m.example/r/${i}.wav`, reply: reply(200, 'audio/wav', WAV, `x${i}`) });
  const all = overRecordings(ensureRecordIsAudioOfItsContentType);
  const held = await run(all, [good(1), good(2), good(3)]);
  expect(held.outcome).toBe('pass');
  expect(held.detail).toContain('held on 3 of 3 recording(s)');
  const broken = await run(all, [good(1), { url: 'http://m.example/r/2.wav', reply: reply(200, 'audio/mpeg', WAV, 'x2') }, good(3)]);
  expect(broken.outcome).toBe('fail');
  expect(broken.received).toMatch(/^recording 2 of 3 \(http:\/\/m\.example\/r\/2\.wav\): HTTP 200 \(audio\/mpeg\)/);
  expect((await run(all, [])).outcome).toBe('notApplicable');
  expect((await run(all, [{ url: 'http://m.example/r/1.wav', reply: reply(undefined, undefined, Buffer.alloc(0)) }])).outcome).toBe('notApplicable');
});
