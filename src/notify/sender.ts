import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Mailer, OutboxStore } from './interface.ts';
import { composeQuotaMail, messageIdDomain } from './message.ts';

const LEASE_MS = 60_000;
const MAX_BACKOFF_MS = 5 * 60_000;
/**
 * How long one send may take before the mailer gives up (SMTP: connect 10 s, greeting 10 s,
 * socket idle 20 s). A send is begun only while at least this much of the lease is left: one
 * still under way when the lease ends would go out twice, once more from the sender that takes
 * the row over.
 */
const SEND_BUDGET_MS = 40_000;

/** Backoff after the n-th failed attempt: 2 s, 4 s, 8 s, … capped at 5 minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 2000 * 2 ** Math.min(attempts, 20));
}

/**
 * Drains the outbox: claims due rows for a lease (so no other instance sends them meanwhile),
 * sends each, and marks it sent only once the mail server accepted it. Failures are retried
 * with backoff; nothing is dropped.
 */
export class OutboxSender {
  readonly owner = `sender-${randomUUID()}`;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  /** The domain of every Message-ID this sender makes (the sender's address is fixed at start). */
  private readonly domain: string;

  constructor(
    private readonly store: OutboxStore,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly from: string,
  ) {
    this.domain = messageIdDomain(from);
  }

  /** One pass over what is due; returns how many messages were sent. Concurrent calls share a pass. */
  drain(): Promise<number> {
    this.running ??= this.pass().finally(() => (this.running = null));
    return this.running;
  }

  private async pass(): Promise<number> {
    let sent = 0;
    for (;;) {
      const claimedAt = this.clock();
      const batch = await this.store.claimDue(this.owner, claimedAt, LEASE_MS, 20);
      if (batch.length === 0) return sent;
      for (const m of batch) {
        // Too little lease left: the rest wait until it ends, then any sender claims them again.
        if (this.clock() > claimedAt + LEASE_MS - SEND_BUDGET_MS) return sent;
        try {
          await this.mailer.send(composeQuotaMail(m, this.from, this.domain));
        } catch (err) {
          await this.store.markFailed(
            m.id,
            this.owner,
            this.clock() + backoffMs(m.attempts),
            String((err as Error).message),
          );
          this.logger.warn(
            { messageId: m.id, attempts: m.attempts + 1, err: (err as Error).message },
            'quota e-mail not accepted; will retry',
          );
          continue;
        }
        if (await this.store.markSent(m.id, this.owner, this.clock())) sent++;
        else this.logger.error({ messageId: m.id }, 'quota e-mail sent after its lease expired');
      }
    }
  }

  start(intervalMs = 1000): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.drain().catch((err) => this.logger.error({ err }, 'outbox pass failed'));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => 0);
  }
}
