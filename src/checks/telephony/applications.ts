/**
 * The application table of the telephony area's callbacks: which check is applied to which
 * property's generated cases, with its requirement ids and severity (`Row`,
 * `src/checks/apply.ts`). The status of the makeCall answer is the answer; the changeUserStatus
 * answer is ignored but must come (issue 24). The module's own calls to the system (call events,
 * uploads, the manager lookup) are the system-api table's.
 */
import { forProperty, use, type Row } from '../apply.ts';
import { answered } from '../callbacks/applications.ts';
import { ensureStartedCallAnswers200, ensureUnstartableCallIsNot200 } from './make-call.ts';
import { ensureRefusedRecordGivesNoAudio } from './record.ts';

/** `telephony.makeCall`: calls from a user's extension code to a phone number, answered HTTP 200 exactly. */
export const MAKE_CALL_VALID = 'telephony.makeCall: calls the module can start';
/** `telephony.makeCall`: calls from an unknown extension code or to a phone that is no number, not answered 200. */
export const MAKE_CALL_WRONG = 'telephony.makeCall: calls the module cannot start';
/** `telephony.changeUserStatus`: the four statuses of users with an extension code, answered. */
export const CHANGE_USER_STATUS = 'telephony.changeUserStatus: the four statuses';
/** A call's `recordUrl` with a missing or unknown clientId: refused, without the recording. */
export const RECORD_REFUSED = 'telephony.record: a missing or unknown clientId';

export const TELEPHONY_ROWS: ReadonlyArray<Row<never>> = [
  ...forProperty(MAKE_CALL_VALID, [use(ensureStartedCallAnswers200, ['TEL-MAKECALL-200-SUCCESS']), answered(['TEL-MAKECALLURL-URL'])]),
  ...forProperty(MAKE_CALL_WRONG, [use(ensureUnstartableCallIsNot200, ['TEL-MAKECALL-200-SUCCESS']), answered(['TEL-MAKECALLURL-URL'])]),
  ...forProperty(CHANGE_USER_STATUS, [answered(['TEL-CHANGEUSERSTATUSURL-URL'])]),
  ...forProperty(RECORD_REFUSED, [use(ensureRefusedRecordGivesNoAudio, ['WIRE-GEN-BAD-CLIENTID-NO-ACTION']), answered()]),
];
