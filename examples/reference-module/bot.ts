/**
 * Chat bot (mgBot): registers its command with the Bot API, listens on the bot WebSocket and
 * answers commands through `POST /messages`. Whenever the socket closes, normally or
 * abnormally (or cannot be opened), it reconnects after a timeout (`BOT_RECONNECT_MS`).
 *
 * Bot API (header `X-Bot-Token`) at `{endpointUrl}/api/bot/v1`; WebSocket at
 * `{endpointUrl as ws/wss}/api/bot/v1/ws?events=...` (wire-profile section 6).
 */
import WebSocket from 'ws';
import { GatewayClient, describeFailure, rateBehaviour, systemOk } from './outbound.ts';
import type { GatewayAccess } from './registration.ts';
import type { DeliveryStore } from './delivery.ts';
import { isObj, type Obj } from './input.ts';
import { log } from './log.ts';
import { parseFaults } from './faults.ts';
import { parseVariations } from './variations.ts';

/** The bot's fault variants (`FAULTS`, the table in faults.ts; issue 25, item 5). */
const envFaults = parseFaults(process.env.FAULTS);
/** Variation `bot-redials-at-once` (variations.ts): the first redial after a close comes at once. */
const redialsAtOnce = ((): boolean => {
  try {
    return parseVariations(process.env.VARIATIONS).has('bot-redials-at-once');
  } catch {
    return false; // an unknown name: config.ts reports it
  }
})();
/** How soon that variation dials again after its socket closed (the official bot: 8 to 19 ms). */
const REDIAL_AT_ONCE_MS = 5;
import { FaultSet } from './faults.ts';
import { faultyRead } from './gateway-faults.ts';

export const BOT_COMMAND = { name: 'status', description: 'Delivery status of an order: /status <order number>' } as const;

export const BOT_EVENTS = ['message_new', 'message_updated', 'message_deleted', 'chat_created', 'dialog_opened', 'dialog_closed', 'user_joined_chat', 'settings_updated'] as const;

/**
 * The bot WebSocket's base address from the gateway's `endpointUrl`: `https` becomes `wss` and
 * `http` becomes `ws`, as the official bot derives it (wire profile section 8).
 */
export function webSocketBase(endpointUrl: string): string {
  return endpointUrl.replace(/^http(s?):\/\//i, (_m, s: string) => `ws${s.toLowerCase()}://`);
}

export class Bot {
  private api: GatewayClient | undefined;
  private wsUrl: string | undefined;
  private token: string | undefined;
  private socket: WebSocket | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Counters shown in the state snapshot. */
  readonly stats = { connects: 0, opened: 0, closes: 0, frames: 0, commands: 0, replies: 0 };
  commandRegistered = false;

  constructor(
    private readonly deliveries: DeliveryStore,
    private readonly reconnectMs: number,
    private readonly timeoutMs: number,
    /** Called with each socket once it is open (the fault `ws-huge-frames` sends through it). */
    private readonly onOpen: (socket: WebSocket) => void = () => undefined,
  ) {}

  get connected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Starts (or restarts, with new access) the bot: command, then the socket. */
  async start(access: GatewayAccess, faults: FaultSet = new FaultSet()): Promise<void> {
    const wsUrl = `${webSocketBase(access.endpointUrl)}/api/bot/v1/ws?events=${BOT_EVENTS.join(',')}`;
    const changed = wsUrl !== this.wsUrl || access.token !== this.token;
    this.api = new GatewayClient(`${access.endpointUrl}/api/bot/v1`, 'X-Bot-Token', access.token, this.timeoutMs, rateBehaviour('bot', faults));
    this.wsUrl = wsUrl;
    this.token = access.token;
    await faultyRead('bot', access, faults, this.timeoutMs);
    await this.registerCommand();
    if (changed) {
      if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
      this.reconnectTimer = undefined;
      this.discardSocket();
      this.connect();
    } else if (!this.socket && !this.reconnectTimer) {
      this.connect();
    }
  }

  private async registerCommand(): Promise<void> {
    if (!this.api) return;
    if (envFaults.has('bot-no-command-registration')) return;
    const description = envFaults.has('bot-command-description-long') ? `${BOT_COMMAND.description} (any order)`.padEnd(70, '.') : BOT_COMMAND.description;
    try {
      const body = { ...BOT_COMMAND, description };
      const reply = await this.api.call(envFaults.has('bot-command-by-post') ? 'POST' : 'PUT', `/my/commands/${BOT_COMMAND.name}`, envFaults.has('bot-command-body-array') ? [body] : body);
      this.commandRegistered = systemOk(reply);
      if (!this.commandRegistered) log('bot command refused', { reply: describeFailure(reply) });
    } catch (e) {
      log('bot command registration failed', { error: (e as Error).message });
    }
  }

  private connect(): void {
    if (this.stopped || !this.wsUrl || !this.token || envFaults.has('bot-no-websocket')) return;
    this.stats.connects++;
    const socket = new WebSocket(envFaults.has('bot-ws-wrong-path') ? this.wsUrl.replace('/api/bot/v1/ws?', '/api/bot/v1/websocket?') : this.wsUrl, { headers: envFaults.has('bot-ws-without-token') ? {} : { 'X-Bot-Token': this.token }, handshakeTimeout: this.timeoutMs });
    this.socket = socket;
    let opened = false;
    socket.on('open', () => {
      opened = true;
      this.stats.opened++;
      log('bot socket open');
      this.onOpen(socket);
    });
    socket.on('message', (raw) => void this.onFrame(raw.toString()));
    socket.on('error', (e) => log('bot socket error', { error: e.message }));
    socket.on('close', (code) => {
      this.stats.closes++;
      if (this.socket !== socket) return;
      this.socket = undefined;
      if (this.stopped) return;
      if (code === 1000 && envFaults.has('bot-no-reconnect-after-normal-close')) return log('bot socket closed normally; not reconnecting');
      if (opened && code !== 1000 && envFaults.has('bot-no-reconnect-after-abnormal-close')) return log(`bot socket dropped (${code}); not reconnecting`);
      const delay = envFaults.has('bot-reconnect-tight-loop') ? 0 : redialsAtOnce && opened ? REDIAL_AT_ONCE_MS : this.reconnectMs;
      log(`bot socket closed (${code}); reconnecting in ${delay} ms`);
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = undefined;
        this.connect();
      }, delay);
    });
  }

  private async onFrame(text: string): Promise<void> {
    this.stats.frames++;
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      log('bot frame is not JSON; ignored');
      return;
    }
    if (!isObj(frame) || frame.type !== 'message_new' || !isObj(frame.data)) return;
    const message = isObj(frame.data.message) ? frame.data.message : undefined;
    if (!message || message.type !== 'command') return;
    this.stats.commands++;
    const chatId = message.chat_id ?? frame.data.chat_id ?? (isObj(message.chat) ? message.chat.id : undefined);
    if (chatId === undefined) {
      log('command without chat_id; ignored');
      return;
    }
    const content = this.answer(typeof message.content === 'string' ? message.content : '');
    try {
      const chat = envFaults.has('bot-answers-other-chat') ? Number(chatId) + 1000 : chatId;
      const reply = await this.api?.call('POST', '/messages', { chat_id: chat, ...(envFaults.has('bot-message-without-scope') ? {} : { scope: 'public' }), type: 'text', content });
      if (reply && systemOk(reply)) this.stats.replies++;
      else if (reply) log('bot reply refused', { reply: describeFailure(reply) });
    } catch (e) {
      log('bot reply failed', { error: (e as Error).message });
    }
  }

  /** The answer to a command, from the delivery state. */
  answer(content: string): string {
    const [rawName, ...args] = content.trim().split(/\s+/);
    const name = (rawName ?? '').replace(/^\//, '');
    if (name !== BOT_COMMAND.name) return `Unknown command ${JSON.stringify(rawName ?? '')}. Try /${BOT_COMMAND.name} <order number>.`;
    const key = args[0];
    if (!key) return `Usage: /${BOT_COMMAND.name} <order number>`;
    const d = [...this.deliveries.deliveries.values()].find((x) => x.orderNumber === key || x.deliveryId === key || x.trackNumber === key);
    if (!d) return `No delivery found for ${key}.`;
    return `Order ${d.orderNumber ?? '-'}: delivery ${d.deliveryId}, track ${d.trackNumber}, status ${d.status.code} (${d.status.comment}).`;
  }

  stop(): void {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.discardSocket();
  }

  private discardSocket(): void {
    const s = this.socket;
    this.socket = undefined;
    if (s) {
      s.removeAllListeners();
      s.on('error', () => undefined);
      s.terminate();
    }
  }

  snapshot(): Obj {
    return { connected: this.connected, commandRegistered: this.commandRegistered, ...this.stats };
  }
}
