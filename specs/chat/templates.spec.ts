/**
 * Chat template verification, model-based (issue 25, item 3): fast-check commands over the
 * template table (`src/contract/template-machine.ts`, the one model the gateway simulator
 * enforces too). Templates created through `template_create` webhooks, the provider's verdicts
 * told through `transport.templateVerdict` (the module reports them with
 * `PUT /channels/{channel_id}/templates/{template_code}`), rejected templates resubmitted and
 * approved ones edited through `template_update`, templates deleted through `template_delete`,
 * and templates the provider created told through `transport.templateReport` (the module
 * reports them with `POST /channels/{channel_id}/templates`). Every template call of the module
 * is judged (src/checks/chat/templates.ts; the calls outside the sequences once, when the session
 * ends: src/run/template-calls.ts); a failing sequence shrinks and replays by seed.
 * Only channels whose settings enable template creation get template steps (wire profile 6); a
 * step needing an undeclared trigger is not generated.
 */
import { test } from '../fixtures.ts';
import { covers } from '../covers.ts';
import { inArea } from '../../src/run/areas.ts';
import { runProperty, type PropertyCheck, type PropertySpec } from '../../src/properties/run.ts';
import { propertyChecks, propertyCovers } from '../../src/properties/registry.ts';
import { TEMPLATE_SEQUENCES } from '../../src/checks/chat/applications.ts';
import { notRunFor } from '../../src/properties/applicability.ts';
import { runTemplateSequence, sessionTemplateDriver, templateSequences } from '../../src/properties/template-sequences.ts';
import { awaitChannels } from '../../src/generators/chat/context.ts';

const asNotRun = (checks: PropertyCheck[]) => checks;

test.describe('chat templates', () => {
  test('templates through create, verdicts, resubmission, edits, deletion and provider reports in generated sequences over the verification table', { ...covers(propertyCovers(TEMPLATE_SEQUENCES)), ...inArea('chat', 'mgTransport') }, async ({ session, conformance }) => {
    const checks = propertyChecks(TEMPLATE_SEQUENCES, session.config.profile);
    const blocked = notRunFor(session, 'mgTransport', [{ callback: 'transport.template_create', why: (missing) => `the transport gives no webhookUrl (${missing}): it cannot receive template webhooks` }]);
    if (blocked) return conformance.notRun(blocked.status, blocked.why, asNotRun(checks));
    const transport = await awaitChannels(session, session.config.flowTimeoutMs);
    const channels = (transport?.channels ?? []).filter((c) => c.templateCreation);
    if (channels.length === 0) {
      const active = transport?.channels.length ?? 0;
      return conformance.notRun('notApplicable', active === 0 ? 'the transport activated no channel at the gateway: no template can be created' : `none of its ${active} active channel(s) enables template creation (settings.template.creation): the gateway sends no template webhooks there (wire profile section 6)`, asNotRun(checks));
    }
    const gen = session.config.generation;
    test.setTimeout(gen.timeLimitMs + 60_000);
    const driver = sessionTemplateDriver(session);
    const spec: PropertySpec = {
      name: TEMPLATE_SEQUENCES,
      id: 'template-sequence',
      // Each sequence works on templates of its own, and its steps see only the module's calls about them.
      independent: true,
      arbitrary: templateSequences(driver.canVerdict, driver.canReport),
      checks,
      exec: (c, caseId) => runTemplateSequence(driver, c, caseId),
    };
    await runProperty(conformance, spec, gen);
  });
});
