/**
 * The chat template properties (issue 25, item 3): the generated template sequences over the
 * verification table, each check over every step (`template-sequences.ts`,
 * `src/checks/chat/templates.ts`; the rows, with their ids, in `src/checks/chat/applications.ts`).
 * Spread into `PROPERTY_CHECKS` (`registry.ts`), where `conformance replay` finds them.
 */
import type { PropertyCheck } from './run.ts';
import { appOf } from '../checks/apply.ts';
import { TEMPLATE_SEQUENCE_ROWS, TEMPLATE_SEQUENCES } from '../checks/chat/applications.ts';

// The property's name lives with its rows (the chat application table).
export { TEMPLATE_SEQUENCES };

/** The checks of a template sequence, each over every step. */
export function templateSequenceChecks(): PropertyCheck[] {
  return TEMPLATE_SEQUENCE_ROWS.map((r) => ({ check: r.check, app: appOf(r) }));
}

export const CHAT_TEMPLATE_PROPERTIES: Readonly<Record<string, (profile: boolean) => PropertyCheck[]>> = {
  [TEMPLATE_SEQUENCES]: () => templateSequenceChecks(),
};
