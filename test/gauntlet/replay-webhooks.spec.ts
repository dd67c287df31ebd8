/**
 * A failing webhook case replays exactly (issue 31, item 3): its references are saved as choices
 * (`refs`: which conversation, which quoted message, which files; `src/generators/chat/references.ts`)
 * and bound, in the replay's fresh session, to what that session's gateway holds: the transport
 * opens its conversation with the same first customer message, and the replayed webhooks name
 * it. Proven against the variation `acts-on-references`, which answers 422 to a webhook of a chat
 * it never saw: the replay still fails with the fault, and holds without it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { runReplay as replay } from './run-suite.ts';
import { batchedRun } from './batch.ts';
import { REPLAY_ROWS, REPLAY_TITLES, ROW_TEST_TIMEOUT_MS, rowNamed } from './run-rows.ts';
import type { SavedFailure } from '../../src/checks/case.ts';

// The first run is a row of the shared batch (run-rows.ts); the replays are this file's own.
test.describe.configure({ timeout: ROW_TEST_TIMEOUT_MS });


test(REPLAY_TITLES.webhook, async ({}, testInfo) => {
  const env = { VARIATIONS: 'acts-on-references' };
  const run = await batchedRun('replay', REPLAY_ROWS, rowNamed(REPLAY_ROWS, 'replay-webhook'), testInfo);
  expect(run.exitCode, run.stderr).toBe(1);
  expect(run.results!.results.filter((r) => r.status === 'failed').map((r) => r.check)).toEqual(['ensureMessageSentAnswersReply']);
  const result = run.results!.results.find((x) => x.check === 'ensureMessageSentAnswersReply')!;
  const file = path.join(run.out, result.property!.counterexample!.file!);
  const failure = JSON.parse(fs.readFileSync(file, 'utf8')) as SavedFailure;
  // The saved steps name no chat of their own: a conversation index, bound when sent.
  const steps = (failure.case.payload as { steps: Array<{ data: Record<string, unknown>; refs?: { conversation?: unknown } }> }).steps;
  expect(steps[0]!.refs?.conversation).toEqual(expect.any(Number));
  expect(steps[0]!.data).not.toHaveProperty('external_chat_id');
  const [again, fixed] = await Promise.all([replay(file, { ...env, FAULTS: 'webhook-message-sent-without-id' }), replay(file, { ...env, FAULTS: '' })]);
  expect(again.exitCode, again.stderr).toBe(1);
  expect(again.stdout).toMatch(/\nreplay: ensureMessageSentAnswersReply \[WIRE-TRN-MESSAGE-SENT-REPLY\] FAIL {2}Received: step 1 of \d+, message_sent: message_sent was answered \{\}/);
  expect(fixed.exitCode, fixed.stderr).toBe(0);
  expect(fixed.stdout).toMatch(/\nreplay: ensureMessageSentAnswersReply \[WIRE-TRN-MESSAGE-SENT-REPLY\] PASS/);
  // The replayed webhook named the chat the replay's transport opened with its first customer message.
  const replayed = JSON.parse(fs.readFileSync(path.join(fixed.out, 'replay.json'), 'utf8')) as { exchange: { request: { body: string } } };
  expect((JSON.parse(replayed.exchange.request.body) as { data: { external_chat_id: string } }).data.external_chat_id).toBe('chat-customer-1');
});
