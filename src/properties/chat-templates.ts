/**
 * The chat template properties (issue 25, item 3): the generated template sequences over the
 * verification table, each check over every step (`template-sequences.ts`,
 * `src/checks/chat/templates.ts`). Spread into `PROPERTY_CHECKS` (`registry.ts`), where
 * `conformance replay` finds them.
 */
import type { PropertyCheck } from './run.ts';
import { overSteps } from '../checks/adapt.ts';
import { TEMPLATE_CALL_CHECKS, TEMPLATE_STEP_CHECKS, onTemplateStep } from '../checks/chat/templates.ts';

/** Template sequences: created, verdicts, resubmitted, edited, deleted, reported templates over the verification table. */
export const TEMPLATE_SEQUENCES = 'chat: template sequences';

/** The checks of a template sequence, each over every step. */
export function templateSequenceChecks(): PropertyCheck[] {
  return [...TEMPLATE_STEP_CHECKS, ...TEMPLATE_CALL_CHECKS].map(({ check, requirements }) => ({ check: overSteps(onTemplateStep(check)), app: { requirements: [...requirements], severity: 'MUST' as const } }));
}

export const CHAT_TEMPLATE_PROPERTIES: Readonly<Record<string, (profile: boolean) => PropertyCheck[]>> = {
  [TEMPLATE_SEQUENCES]: () => templateSequenceChecks(),
};
