/**
 * A request or a response as the evidence records it (an exchange's `request` and `response`,
 * exchange.ts), and what a curl line is made from (curl.ts).
 */

export interface RecordedMessage {
  method?: string;
  url?: string;
  status?: number;
  headers: Record<string, string>;
  /** Body as text (UTF-8, with replacement characters for invalid bytes), capped and redacted. */
  body?: string;
  /** Size of the body in bytes as received. */
  bytes: number;
  /** True when the body was longer than the recorded part. */
  truncated?: boolean;
}
