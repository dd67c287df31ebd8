import { defineSchemaRule } from '../schema-rule.ts';
import { show } from '../check.ts';

/** The top-level `actions` holds the `activity` path. */
export const ensureActivityActionDeclared = defineSchemaRule({
  schema: 'registration/integration-module.edit.json',
  name: 'ensureActivityActionDeclared',
  checks: 'the top-level actions hold the activity path',
  owns: [{ path: /^\/actions\/activity$/ }],
  extra(message) {
    const actions = (message as { actions?: unknown }).actions;
    const activity = actions && typeof actions === 'object' ? (actions as Record<string, unknown>).activity : undefined;
    if (typeof activity === 'string' && activity.length > 0) return undefined;
    return { received: actions === undefined ? 'no top-level actions' : `actions = ${show(actions)}`, expected: 'actions.activity, the path of the activity callback' };
  },
});
