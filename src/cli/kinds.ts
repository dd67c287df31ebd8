/**
 * `conformance run --kind K[,K2]` and `conformance init --kinds K[,K2]`: module kinds, by the
 * contract's names (src/contract/kinds.ts). A run narrowed to kinds runs the tests of those kinds
 * and the registration area's: the telephony, delivery and payment areas are their kinds' tests,
 * the chat area's tests name their kind with a tag (`@mgTransport`, `@mgBot`, src/run/areas.ts),
 * so the one pattern Playwright is given (`playwrightGrep`) takes the kinds as it takes areas.
 */
import { MODULE_KINDS, type ModuleKind } from '../contract/kinds.ts';
import { ConfigError, nearestName } from '../module/config-error.ts';

/** The kinds of the chat area, for the one who names the area where a kind is asked for. */
const KINDS_OF_AREA: Readonly<Record<string, readonly ModuleKind[]>> = { chat: ['mgTransport', 'mgBot'] };

/**
 * The kinds of `--kind a,b` (`option`: the option's name, for the message), added to those given
 * before, in the order of src/contract/kinds.ts. An unknown kind is a configuration error naming
 * the nearest known one (an area's name: its kinds).
 */
export function kindsOption(value: string, earlier: readonly ModuleKind[] = [], option = '--kind'): ModuleKind[] {
  const named = value.split(',').map((k) => k.trim());
  for (const kind of named) {
    if ((MODULE_KINDS as readonly string[]).includes(kind)) continue;
    const ofArea = kind === 'registration' ? [] : KINDS_OF_AREA[kind];
    const meant = kind === '' ? undefined : nearestName(kind, [...MODULE_KINDS]);
    const hint = ofArea ? `${kind} is an area${ofArea.length > 0 ? ` of the kinds ${ofArea.join(', ')}` : ' (its tests always run)'}; ` : meant ? `did you mean ${meant}? ` : '';
    throw new ConfigError(`unknown kind ${JSON.stringify(kind)} in ${option} ${value}; ${hint}known kinds: ${MODULE_KINDS.join(', ')}`);
  }
  const chosen = new Set<string>([...earlier, ...named]);
  return MODULE_KINDS.filter((k) => chosen.has(k));
}

/** The tags a run narrowed to these kinds selects: the registration area's, and each kind's (src/run/areas.ts). */
export function kindTags(kinds: readonly ModuleKind[]): string[] {
  return ['registration', ...kinds];
}
