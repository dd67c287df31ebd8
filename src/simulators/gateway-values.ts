/** The gateway's small readers of values, apart from its routing so that its state and conversations need no router. */
export const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
export const iso = (): string => new Date().toISOString();
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
