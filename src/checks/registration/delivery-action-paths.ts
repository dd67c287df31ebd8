import { defineSchemaRule } from '../schema-rule.ts';

/** No two delivery actions share a path (document: "The same path must not be given for different actions"). */
export const ensureDeliveryActionPathsAreUnique = defineSchemaRule({
  schema: 'registration/integration-module.edit.json',
  name: 'ensureDeliveryActionPathsAreUnique',
  checks: 'no two delivery actions share a path',
  kind: 'delivery',
  owns: [],
  extra(message) {
    const actions = (message as { integrations?: { delivery?: { actions?: unknown } } }).integrations?.delivery?.actions;
    if (!actions || typeof actions !== 'object') return undefined;
    const byPath = new Map<string, string[]>();
    for (const [action, p] of Object.entries(actions as Record<string, unknown>)) {
      if (typeof p !== 'string') continue;
      const key = p.replace(/\/+$/, '') || '/';
      byPath.set(key, [...(byPath.get(key) ?? []), action]);
    }
    const shared = [...byPath].filter(([, names]) => names.length > 1);
    if (shared.length === 0) return undefined;
    return {
      received: shared.map(([p, names]) => `${names.join(' and ')} share the path ${JSON.stringify(p)}`).join('; '),
      expected: 'a distinct path for every delivery action',
    };
  },
});
