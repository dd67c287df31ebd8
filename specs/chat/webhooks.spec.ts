/**
 * The gateway's webhooks to a transport's `webhookUrl` (issue 25, item 2; document, Events and
 * Authentication; wire profile section 6), generated per active channel and only of the types
 * the channel's settings enable (`webhookTypesOf`): the suite never sends a type a channel did
 * not enable.
 *
 * 1. Authorised webhooks: `template_create` answered `{code}`, unique within the channel over the
 *    many generated templates; `template_update` (with the code the module gave) and
 *    `template_delete` (`channel_id`, `code`, `lang`) acknowledged; `message_sent` with every data
 *    field (template messages with variables where the channel sends and creates templates,
 *    suggestions, files) answered `{external_message_id}` or `{error: {code, message}}` with a
 *    known code; `message_updated`, `message_deleted`, `message_read` acknowledged.
 * 2. Probes: a webhook with a missing or unknown `ClientId` header is refused, and leaves no
 *    effect the gateway can see (no template of its name reported; a template it would have
 *    deleted still gets its verdict reported, `transport.templateVerdict`).
 *
 * What a webhook names exists on the gateway (wire profile 6, "What a webhook's `data` names
 * exists on the gateway"; issue 31, item 3): before a channel's first case, where the module
 * declares `transport.inboundMessage`, one customer message (`count` 1) opens a conversation; each
 * step's chat and customer are those of a conversation of its channel, a quote names a message the
 * transport knows there, a file one the gateway serves (`src/generators/chat/references.ts`: the
 * choices are drawn from the seed, bound to the gateway's state when the step is sent, and so
 * replayed exactly by `conformance replay`).
 *
 * The types sent per channel (and the channel's settings, and its conversations by who started
 * them) go to the attachment `webhook-types.json`. A failing case shrinks, is saved and replays
 * step by step.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { test } from '../fixtures.ts';
import { covers } from '../covers.ts';
import { inArea } from '../../src/run/areas.ts';
import { runProperty, type PropertySpec } from '../../src/properties/run.ts';
import { propertyChecks, propertyCovers } from '../../src/properties/registry.ts';
import { notRunFor } from '../../src/properties/applicability.ts';
import { runWebhookCase, sentPerChannel, sessionWebhookDriver } from '../../src/properties/chat-webhooks.ts';
import { CHAT_WEBHOOK_PROBES, CHAT_WEBHOOKS } from '../../src/checks/chat/applications.ts';
import { awaitChannels, type ChatChannel } from '../../src/generators/chat/context.ts';
import { refusedCase, webhookCase } from '../../src/generators/chat/webhooks.ts';
import type { GeneratedCase } from '../../src/checks/case.ts';
import { internalDir } from '../../src/run/environment.ts';


/** One case of any channel that has one to give. */
function overChannels(channels: ChatChannel[], of: (c: ChatChannel) => fc.Arbitrary<GeneratedCase> | undefined): fc.Arbitrary<GeneratedCase> | undefined {
  const arbs = channels.map(of).filter((a): a is fc.Arbitrary<GeneratedCase> => a !== undefined);
  return arbs.length === 0 ? undefined : fc.oneof(...arbs);
}

const settingsOf = (channels: ChatChannel[]) =>
  Object.fromEntries(channels.map((c) => [String(c.id), { settings: c.settings, messageKinds: c.messageKinds, templateSending: c.templateSending, webhookTypes: c.webhookTypes }]));

/** The webhook types sent per channel configuration, also in the run's folder (`internal/webhook-types.json`, one member per property). */
function writeTypes(id: string, record: unknown): void {
  try {
    const file = path.join(internalDir(), 'webhook-types.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const all = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
    fs.writeFileSync(file, `${JSON.stringify({ ...all, [id]: record }, null, 2)}\n`);
  } catch {
    // The attachment has it.
  }
}

test.describe('transport webhooks', () => {
  const PROPERTIES = [
    { name: CHAT_WEBHOOKS, id: 'webhooks', title: 'webhooks of the types each channel enables, generated: template_create answers a unique {code}, template_update/delete acknowledged, message_sent answers its reply', probes: false },
    { name: CHAT_WEBHOOK_PROBES, id: 'webhook-probes', title: 'webhooks with a missing or unknown ClientId are refused and leave no effect the gateway can see', probes: true },
  ];
  for (const p of PROPERTIES) {
    test(p.title, { ...covers(propertyCovers(p.name)), ...inArea('chat', 'mgTransport') }, async ({ session, conformance }, testInfo) => {
      const checks = propertyChecks(p.name, session.config.profile);
      const blocked = notRunFor(session, 'mgTransport');
      if (blocked) return conformance.notRun(blocked.status, blocked.why, checks);
      const gen = session.config.generation;
      const transport = await awaitChannels(session, session.config.flowTimeoutMs);
      if (!transport) return conformance.notRun('skipped', 'the transport is not registered at the gateway', checks);
      if (!transport.webhookUrl) return conformance.notRun('notApplicable', 'the transport gives no webhookUrl: the gateway cannot send it any webhook (judged by ensureTransportGivesWebhookUrl)', checks);
      if (!/^https?:\/\/[^/]/i.test(transport.webhookUrl)) return conformance.notRun('notApplicable', `the transport's webhookUrl ${JSON.stringify(transport.webhookUrl)} is not an absolute http(s) URL: the gateway cannot send it any webhook (judged by ensureUrlsAreWellFormed)`, checks);
      if (transport.channels.length === 0) return conformance.notRun('notApplicable', 'the transport activated no channel: the gateway sends webhooks only for active channels', checks);
      const driver = sessionWebhookDriver(session, gen.seed);
      const arbitrary = overChannels(transport.channels, (c) => (p.probes ? refusedCase(c, { verdict: driver.verdict !== undefined }) : webhookCase(c)));
      if (!arbitrary) return conformance.notRun('notApplicable', `no active channel enables a webhook type the suite sends (${transport.channels.map((c) => `channel ${c.id}: ${c.webhookTypes.join(', ') || 'none'}`).join('; ')})`, checks);
      test.setTimeout(gen.timeLimitMs + 60_000);
      const spec: PropertySpec = { name: p.name, id: p.id, arbitrary, checks, exec: (c, caseId) => runWebhookCase(driver, c, caseId) };
      try {
        await runProperty(conformance, spec, gen);
      } finally {
        const record = { property: p.name, channels: settingsOf(transport.channels), sent: sentPerChannel(driver), conversations: session.gateway.state.conversations.counts() };
        await testInfo.attach(`${p.id}-types.json`, { body: JSON.stringify(record, null, 2), contentType: 'application/json' });
        writeTypes(p.id, record);
      }
    });
  }
});
