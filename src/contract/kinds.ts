/** The module kinds of the contract: the keys under `integrationModule.integrations`. */
export const MODULE_KINDS = ['telephony', 'delivery', 'payment', 'mgTransport', 'mgBot'] as const;

export type ModuleKind = (typeof MODULE_KINDS)[number];

/** The kinds a registration declares: keys of `integrations` that the contract knows, not null. */
export function declaredKinds(module: Record<string, unknown>): ModuleKind[] {
  const integrations = module.integrations;
  if (!integrations || typeof integrations !== 'object' || Array.isArray(integrations)) return [];
  return Object.entries(integrations)
    .filter(([k, v]) => (MODULE_KINDS as readonly string[]).includes(k) && v !== null && v !== undefined)
    .map(([k]) => k as ModuleKind);
}
