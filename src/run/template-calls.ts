/**
 * Judges every template call of the module that no template step judged (calls outside the
 * template sequences: prompted by another spec's trigger, or made on its own), once, when the
 * session ends: the template table and the document's values and limits
 * (`src/checks/chat/templates.ts`; the rows `TEMPLATE_CALL_ROWS` of the chat application table),
 * each call with its exchange as evidence. Nothing is recorded when there is no such call.
 */
import { offRouteCallOf, templateCallOf, type TemplateCallView } from '../checks/chat/template-views.ts';
import { TEMPLATE_CALL_ROWS } from '../checks/chat/applications.ts';
import type { Exchange } from '../evidence/exchange.ts';
import type { RunSession } from './session.ts';
import type { Conformance } from './conformance.ts';

/** Every template call of the module in the session that no step judged yet (recorded calls, and requests to template paths by a method they do not have). */
export function unjudgedTemplateCalls(session: RunSession): TemplateCallView[] {
  const recorded = session.gateway.calls.flatMap((c) => {
    const v = templateCallOf(c);
    return v ? [v] : [];
  });
  const unknown = ((session.gateway as unknown as { unknown?: Exchange[] }).unknown ?? []).flatMap((x) => {
    const v = offRouteCallOf(x);
    return v ? [v] : [];
  });
  return [...recorded, ...unknown].filter((c) => !session.judged.has(c.exchange));
}

export async function judgeTemplateCalls(conformance: Conformance): Promise<void> {
  const calls = unjudgedTemplateCalls(conformance.session);
  if (calls.length === 0) return;
  for (const c of calls) conformance.session.judged.add(c.exchange);
  for (const row of TEMPLATE_CALL_ROWS) await conformance.apply(row, { calls });
}
