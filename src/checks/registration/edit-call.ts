/**
 * How the module made its registration call (`POST /api/v5/integration-modules/{code}/edit`),
 * judged on what happened to every attempt: the system's answer is part of the verdict.
 */
import type { InboundCall } from '../../simulators/system-endpoints.ts';
import { defineCheck, fail, notApplicable, pass } from '../check.ts';

/** "POST /api/v4/integration-modules/x/edit -> HTTP 404" for a message. */
export function describeCall(call: InboundCall): string {
  const url = new URL(call.exchange.request.url ?? '/', 'http://system.invalid');
  return `${call.exchange.request.method} ${url.pathname} -> HTTP ${call.exchange.response?.status ?? '?'}`;
}

const ids = (calls: readonly InboundCall[]): string[] => calls.map((c) => c.exchange.id);

/** Every registration attempt carries the API key the run gave (parameter `apiKey` or header `X-API-KEY`). */
export const ensureEditCarriesTheApiKey = defineCheck<readonly InboundCall[]>({
  name: 'ensureEditCarriesTheApiKey',
  checks: 'the registration call carries the API key the user gave (apiKey parameter or X-API-KEY header)',
  run(attempts) {
    if (attempts.length === 0) return notApplicable('the module made no registration call');
    const missing = attempts.filter((c) => c.apiKeyVia.length === 0);
    const wrong = attempts.filter((c) => c.apiKeyVia.length > 0 && !c.apiKeyValid);
    if (missing.length > 0) return fail(`${missing.length} of ${attempts.length} registration call(s) without an API key (${describeCall(missing[0]!)})`, 'apiKey as a form or query parameter, or the X-API-KEY header', ids(missing));
    if (wrong.length > 0) return fail(`${wrong.length} of ${attempts.length} registration call(s) with an API key that is not the one the run gave (${describeCall(wrong[0]!)})`, 'the API key the user supplied (the run gave it as {apiKey})', ids(wrong));
    return pass(`${attempts.length} registration call(s), each with the run's API key`, ids(attempts));
  },
});

/** Every registration attempt sends the module as form parameter `integrationModule` holding a JSON object. */
export const ensureEditSendsIntegrationModuleForm = defineCheck<readonly InboundCall[]>({
  name: 'ensureEditSendsIntegrationModuleForm',
  checks: 'the registration call sends form parameter integrationModule holding the module as a JSON object',
  run(attempts) {
    if (attempts.length === 0) return notApplicable('the module made no registration call');
    const bad = attempts.filter((c) => c.decodeError !== undefined || !c.payload || typeof c.payload !== 'object' || Array.isArray(c.payload));
    if (bad.length > 0) {
      const first = bad[0]!;
      const ct = first.exchange.request.headers['content-type'] ?? 'no content type';
      const why = first.decodeError ?? `integrationModule is ${Array.isArray(first.payload) ? 'an array' : typeof first.payload}, not an object`;
      return fail(`${bad.length} of ${attempts.length} registration call(s) unreadable: ${why} (${ct}; ${describeCall(first)})`, 'form parameters (urlencoded or multipart) with integrationModule=<JSON object>', ids(bad));
    }
    return pass(`${attempts.length} registration call(s), each with integrationModule as a JSON object`, ids(attempts));
  },
});

/** Calls to the system API use version v5 in their path. */
export const ensureSystemCallsUseApiV5 = defineCheck<readonly InboundCall[]>({
  name: 'ensureSystemCallsUseApiV5',
  checks: 'calls to the system API carry the version v5 in their path (/api/v5/...)',
  run(calls) {
    const versioned = calls.filter((c) => c.version !== 'none');
    if (versioned.length === 0) return notApplicable('no call to a versioned endpoint of the system');
    const other = versioned.filter((c) => c.version !== 'v5');
    if (other.length > 0) return fail(`${other.length} call(s) with version ${[...new Set(other.map((c) => c.version))].join(', ')} (${describeCall(other[0]!)})`, '/api/v5/... (document, Versioning 1)', ids(other));
    return pass(`${versioned.length} call(s) to /api/v5`, ids(versioned));
  },
});

/** The module registers itself through `edit` (and at least one attempt went through). */
export const ensureModuleRegistersViaEdit = defineCheck<{ attempts: readonly InboundCall[]; otherCalls: number }>({
  name: 'ensureModuleRegistersViaEdit',
  checks: 'the module registers itself with POST /api/v5/integration-modules/{code}/edit',
  run({ attempts, otherCalls }) {
    if (attempts.length === 0) return fail(`no registration call; the module made ${otherCalls} other call(s) to the system`, 'POST /api/v5/integration-modules/{code}/edit with the module');
    const accepted = attempts.filter((c) => c.accepted);
    if (accepted.length === 0) return notApplicable(`the system refused all ${attempts.length} registration call(s); why is judged by the checks of the call`);
    return pass(`registered by ${describeCall(accepted[0]!)}`, ids(accepted.slice(0, 1)));
  },
});

/** Accepted registration calls, oldest first, and how many the `registration.repeat` trigger asked for. */
export interface AcceptedRegistrations {
  accepted: readonly InboundCall[];
  prompted: number;
}

/** The same registration sent again and again after success answers before the rule calls it a loop. */
export const REGISTRATION_LOOP_REPEATS = 2;

/** What a registration says, nulls read as absent (wire profile section 9), keys in a stable order. */
function canonical(value: unknown): string {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .filter((k) => (v as Record<string, unknown>)[k] !== null)
          .sort()
          .map((k) => [k, walk((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(walk(value)) ?? 'undefined';
}

/**
 * A success answer to the registration is taken as success: the module does not send the same
 * registration again and again after the system accepted it (a module that takes HTTP 201,
 * telephony's success, for a failure loops). An update is no repeat: `edit` "creates the module
 * if the code is new, otherwise changes it", so a registration that changes anything (a shop
 * added, a name changed) is the module updating itself. One identical repeat is tolerated (a
 * retry after an answer the module did not see); repeats the `registration.repeat` trigger asked
 * for are not counted.
 */
export const ensureAcceptedRegistrationIsNotRepeated = defineCheck<AcceptedRegistrations>({
  name: 'ensureAcceptedRegistrationIsNotRepeated',
  checks: "the module takes the system's success answer to its registration as success: it does not send the same registration again and again",
  run({ accepted, prompted }) {
    if (accepted.length === 0) return notApplicable('no registration was accepted');
    const last = new Map<string, string>();
    const repeats: InboundCall[] = [];
    let updates = 0;
    for (const call of accepted) {
      const code = String(call.params.code);
      const body = canonical(call.payload);
      const before = last.get(code);
      if (before === body) repeats.push(call);
      else if (before !== undefined) updates += 1;
      last.set(code, body);
    }
    const unprompted = Math.max(0, repeats.length - prompted);
    const said = `${accepted.length} accepted registration call(s): ${updates} update(s) that changed the module, ${repeats.length} identical repeat(s), ${prompted} asked for by the registration.repeat trigger`;
    if (unprompted >= REGISTRATION_LOOP_REPEATS) {
      const first = accepted[0]!;
      return fail(
        `${said}; the same registration was sent ${unprompted} more time(s) after the system accepted it (first answer: HTTP ${first.exchange.response?.status} ${first.exchange.response?.body ?? ''})`,
        'HTTP 200 {success: true}, or HTTP 201 for telephony, taken as success: the same registration is not sent again and again (an update that changes the module is fine)',
        ids([first, ...repeats].slice(0, 5)),
      );
    }
    return pass(said, ids(accepted.slice(0, 5)));
  },
});
