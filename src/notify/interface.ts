import type { Plan } from '../quota/plans.ts';

/** An outbox row claimed by one sender for a lease: no other instance sends it meanwhile. */
export interface ClaimedMessage {
  id: string;
  accountId: string;
  email: string;
  /** The account's plan when the threshold was crossed: the mail describes that plan, not a later one. */
  plan: Plan;
  /** The account's anchor then, to tell when that plan's period resets. */
  anchor: number;
  periodStart: number;
  threshold: number;
  used: number;
  limit: number;
  attempts: number;
}

/** The outbox side of the account store. */
export interface OutboxStore {
  claimDue(owner: string, now: number, leaseMs: number, max: number): Promise<ClaimedMessage[]>;
  /** False when the lease was lost (another sender took it over); the caller then sent a duplicate risk and logs it. */
  markSent(id: string, owner: string, now: number): Promise<boolean>;
  markFailed(id: string, owner: string, nextAttemptAt: number, error: string): Promise<void>;
}

export interface MailMessage {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Stable per outbox row, so a receiving server can de-duplicate a resend. */
  messageId: string;
}

/** Delivers one message; resolves only once the receiving side has accepted it. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}
