/**
 * The bot's property (issue 25, item 5): generated frames on the bot WebSocket (commands the bot
 * registered and plain messages, in chats the gateway knows), each judged by what the bot did
 * through the Bot API. Spread into `PROPERTY_CHECKS` (registry.ts).
 */
import type { PropertyCheck } from './run.ts';
import { ensureBotAnswersInItsChat, ensureBotMessageBody } from '../checks/chat/bot.ts';

/** `bot events`: commands and new messages sent on the socket, the answers judged. */
export const BOT_EVENTS = 'chat bot: events on the WebSocket';

export const CHAT_BOT_PROPERTY_CHECKS: Readonly<Record<string, (profile: boolean) => PropertyCheck[]>> = {
  [BOT_EVENTS]: () => [
    // "Bot listens to events, then acts through Bot API calls": the action on a command is in its chat.
    { check: ensureBotAnswersInItsChat, app: { requirements: ['BOT-WEBSOCKET-LISTEN'], severity: 'MUST' } },
    { check: ensureBotMessageBody, app: { requirements: ['WIRE-BOT-MESSAGES-BODY'], severity: 'MUST' } },
  ],
};
