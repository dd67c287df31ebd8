/**
 * How the module made its registration call (`POST /api/v5/integration-modules/{code}/edit`),
 * judged on what happened to every attempt: the system's answer is part of the verdict.
 */
import type { InboundCall } from '../../simulators/system.ts';
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

/** An accepted registration is taken as done: the module does not send it again unprompted. */
export const ensureAcceptedRegistrationIsNotRepeated = defineCheck<{ accepted: readonly InboundCall[]; prompted: number }>({
  name: 'ensureAcceptedRegistrationIsNotRepeated',
  checks: 'the module takes the system\'s success answer to its registration as success and does not repeat it unprompted',
  run({ accepted, prompted }) {
    if (accepted.length === 0) return notApplicable('no registration was accepted');
    const expected = 1 + prompted;
    if (accepted.length > expected) {
      const first = accepted[0]!;
      return fail(
        `${accepted.length} accepted registration calls where ${expected} ${expected === 1 ? 'was' : 'were'} asked for; the first was answered ${first.exchange.response?.status} ${first.exchange.response?.body ?? ''}`,
        'one registration per request: HTTP 200 {success: true}, or HTTP 201 for telephony, is a success',
        ids(accepted.slice(0, 5)),
      );
    }
    return pass(`${accepted.length} accepted registration call(s), ${prompted} asked for by the registration.repeat trigger`, ids(accepted));
  },
});
