/**
 * What a webhook names, bound to what exists on the gateway (wire profile section 6, "What a
 * webhook's `data` names exists on the gateway"): its chat and customer are those of a
 * conversation on that channel; a quoted message (`quote_external_id`) is one the transport
 * knows there (its own `external_message_id` answer or a message it sent); a file of `items` (and
 * of a template's header or samples) is one the gateway holds and serves at `GET /files/{id}`.
 *
 * How a case stays seeded and replays exactly: fast-check draws each step's choices, `StepRefs`
 * (which conversation, whether and which message to quote, which file per slot), as plain numbers
 * kept in the case; the step is bound to the gateway's state when it is sent (`bindStep`), since
 * a case's earlier steps add to that state (the id the transport gave the case's own message can
 * be quoted by the next step). Binding is a pure function of the choices and the state, the state
 * oldest first: the conversation at index `conversation` modulo their number (the conversations
 * customers started through the transport when there are any, else those the gateway starts),
 * the known message at index `quote` modulo their number (no quote when there is none), the held
 * file at index `files[i]`, or a file the gateway puts there when the index is past the held
 * ones. `conformance replay` runs the saved case through the same runner: the session it starts
 * opens the channel's conversation the same way (one customer message, `transport.inboundMessage`
 * with `count` 1), and the same choices bind to that state; the ids themselves are the module's
 * and may differ from the run's, the choices do not.
 */
import type { GatewayState } from '../../simulators/gateway-state.ts';
import type { Conversation } from '../../simulators/gateway-conversations.ts';
import { heldFiles, putFile } from '../../simulators/gateway-files.ts';
import { HEADER_FILES, type HeaderKind } from '../../contract/template-machine.ts';

/** A step's references as choices; bound by `bindStep` when the step is sent. */
export interface StepRefs {
  /** The conversation the step is in: an index among the channel's, or `previous`, that of the case's last message (the one it names). */
  conversation?: number | 'previous';
  /** Quote a message the transport knows in that conversation: an index among them. */
  quote?: number;
  /** Per file slot of the data (`items`, then the template header's attachments, then the sample attachments), an index among the held files. */
  files?: number[];
}

/** What the binding reads and adds to: the gateway's state, seen by one transport. */
export interface ReferenceScope {
  state: GatewayState;
  /** The transport's token (its files). */
  token: string;
}

/** The conversations a step may be in: those customers started through the transport, else any. */
export function usableConversations(scope: ReferenceScope, channelId: number): Conversation[] {
  const all = scope.state.conversations.of(channelId);
  const opened = all.filter((c) => c.origin === 'transport');
  return opened.length > 0 ? opened : all;
}

/** The number the gateway gives a conversation it starts itself (digits: messengers number their chats). */
const startedId = (channelId: number): string => String(9_000_000_000 + channelId);

/** The gateway starts a conversation of its own on a channel no customer wrote to (a manager writes first). */
export function startConversation(scope: ReferenceScope, channelId: number): Conversation {
  const id = startedId(channelId);
  const customer = { external_id: id, fields: { external_id: id, first_name: 'Алёна', last_name: 'Šťastná', nickname: 'alena' } };
  // One state: the chat is the gateway's too (the bot's events see it).
  if (scope.state.channels.has(channelId)) scope.state.addChat(channelId, id, customer.fields as Record<string, unknown> & { external_id: string });
  return scope.state.conversations.start(channelId, id, customer);
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A file slot of a step's data: the object whose `id` names a file, and the kind of file it is. */
interface Slot {
  holder: Record<string, unknown>;
  kind: string;
  /** `items[]` carry the file's size. */
  sized: boolean;
  /** A template's header file or sample: of the header's kind, within its limits (`HEADER_FILES`). */
  header: boolean;
}

/** The file slots of a webhook's data, in order: `items`, `template.variables.header.attachments`, the samples' `attachments`. */
export function fileSlots(data: Record<string, unknown>): Slot[] {
  const slots: Slot[] = [];
  const kind = typeof data.type === 'string' ? data.type : 'file';
  if (Array.isArray(data.items)) for (const it of data.items) if (isObj(it)) slots.push({ holder: it, kind, sized: true, header: false });
  const header = isObj(data.template) && isObj(data.template.variables) && isObj(data.template.variables.header) ? data.template.variables.header : undefined;
  if (header && Array.isArray(header.attachments)) for (const a of header.attachments) if (isObj(a)) slots.push({ holder: a, kind: String(header.type ?? 'document'), sized: false, header: true });
  const sampleKind = isObj(data.attachments) && typeof data.attachments.type === 'string' ? data.attachments.type : 'file';
  for (const k of ['example', 'examples']) {
    const ex = data[k];
    if (isObj(ex) && Array.isArray(ex.attachments)) for (const a of ex.attachments) if (isObj(a)) slots.push({ holder: a, kind: sampleKind, sized: false, header: true });
  }
  return slots;
}

/**
 * Whether a held file may stand in a slot: in a message's `items` a file of the message's kind (an
 * image for an image, any file for a file) within the channel's `max_item_size`; in a template's
 * header or samples a file of the header's kind and limits (document, Chat template: `HEADER_FILES`).
 */
function fits(file: { mime_type: string; size: number }, slot: Slot, maxItemSize: number | undefined): boolean {
  if (slot.header) {
    const spec = Object.hasOwn(HEADER_FILES, slot.kind) ? HEADER_FILES[slot.kind as HeaderKind] : HEADER_FILES.document;
    return (spec.mimes as readonly string[]).includes(file.mime_type) && file.size <= spec.maxBytes;
  }
  if (maxItemSize !== undefined && file.size > maxItemSize) return false;
  return slot.kind === 'image' || slot.kind === 'audio' || slot.kind === 'video' ? file.mime_type.startsWith(`${slot.kind}/`) : true;
}

/** The channel's `max_item_size` for a kind of message (wire profile 6: its settings), when it gives one. */
function maxItemSize(scope: ReferenceScope, channelId: number, kind: string): number | undefined {
  const feature = scope.state.channels.get(channelId)?.settings[kind];
  const max = isObj(feature) ? feature.max_item_size : undefined;
  return typeof max === 'number' && max > 0 ? max : undefined;
}

/** What binding a step gave: its data, and the conversation it is in (when it names one). */
export interface Bound {
  data: Record<string, unknown>;
  conversation?: Conversation;
}

/**
 * A step's data with its references bound to the state: `external_chat_id` and
 * `external_user_id` of its conversation (the gateway starts one where the channel has none),
 * `quote_external_id` of a message known there (or no quote), the ids of held files (a size taken
 * from the file). `previous` is the conversation of the case's last message.
 */
export function bindStep(scope: ReferenceScope, channelId: number, data: Record<string, unknown>, refs: StepRefs | undefined, previous?: Conversation): Bound {
  if (!refs) return { data };
  const out: Record<string, unknown> = structuredClone(data);
  let conversation: Conversation | undefined;
  if (refs.conversation !== undefined) {
    const list = usableConversations(scope, channelId);
    conversation =
      refs.conversation === 'previous' && previous
        ? previous
        : list.length > 0
          ? list[(refs.conversation === 'previous' ? 0 : refs.conversation) % list.length]!
          : startConversation(scope, channelId);
    out.external_chat_id = conversation.external_chat_id;
    out.external_user_id = conversation.customer.external_id;
  }
  delete out.quote_external_id;
  if (refs.quote !== undefined && conversation) {
    const known = scope.state.conversations.knownIds(conversation);
    if (known.length > 0) out.quote_external_id = known[refs.quote % known.length]!;
  }
  if (out.quote_external_id === undefined) delete out.quote_content;
  const slots = fileSlots(out);
  if (slots.length > 0) {
    for (const [i, slot] of slots.entries()) {
      const max = slot.header ? undefined : maxItemSize(scope, channelId, slot.kind);
      const held = heldFiles(scope.state, scope.token).filter((f) => fits(f, slot, max));
      const pick = refs.files?.[i] ?? 0;
      const drawn = typeof slot.holder.size === 'number' && slot.holder.size > 0 ? slot.holder.size : 100 * 1024;
      const size = Math.min(drawn, max ?? drawn, slot.header ? 1024 * 1024 : drawn);
      const file = pick < held.length ? held[pick]! : putFile(scope.state, scope.token, slot.kind, size);
      slot.holder.id = file.id;
      if (slot.sized && file.size > 0) slot.holder.size = file.size;
    }
  }
  return { data: out, ...(conversation ? { conversation } : {}) };
}
