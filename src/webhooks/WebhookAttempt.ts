/** One delivery attempt, as a dispatcher reports it (one log line each). @public */
export interface WebhookAttempt {
  /** The event id (`webhook-id`). */
  readonly event_id: string;
  /** The event type. */
  readonly type: string;
  /** The partner's application id. */
  readonly partner: string;
  /** Which attempt, from 1. */
  readonly attempt: number;
  /** The HTTP status, or null when no response came. */
  readonly status: number | null;
  /**
   * What follows: `delivered`; `retry` (at `next_attempt_at`); `dead` (dead-lettered);
   * `disabled` (a 410: the endpoint is off until its settings change; the event waits);
   * `lost` (the claim's lease passed before the outcome was recorded: another claim has it).
   */
  readonly outcome: 'delivered' | 'retry' | 'dead' | 'disabled' | 'lost';
  /** How long the attempt took, in milliseconds. */
  readonly duration_ms: number;
  /** When the next attempt is due (ISO 8601), for `retry`. */
  readonly next_attempt_at?: string;
  /** Why it failed, when it did. */
  readonly error?: string;
}

/**
 * One attempt as a log line: event id, partner, attempt, status, outcome, duration and, for a
 * retry, the next attempt.
 * @param a - the attempt
 * @returns the line, without a newline
 * @public
 */
export function formatWebhookAttempt(a: WebhookAttempt): string {
  const parts = [
    `webhook ${a.event_id}`,
    `partner=${a.partner}`,
    `type=${a.type}`,
    `attempt=${a.attempt}`,
    `status=${a.status ?? '-'}`,
    `outcome=${a.outcome}`,
    `duration_ms=${a.duration_ms}`,
  ];
  if (a.next_attempt_at !== undefined) parts.push(`next_attempt_at=${a.next_attempt_at}`);
  if (a.error !== undefined) parts.push(`error=${JSON.stringify(a.error)}`);
  return parts.join(' ');
}
