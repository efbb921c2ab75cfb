import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import { AddressTakenError } from '../errors.ts';
import type { Mailer } from '../notify/interface.ts';
import { messageIdDomain } from '../notify/message.ts';
import type { RateLimiter } from '../ratelimit/interface.ts';
import type { Account, AccountStore } from '../storage/accounts/interface.ts';
import type { InFlight } from '../util/in-flight.ts';
import type { SessionStore } from './interface.ts';
import { generateSecretToken, hashSecretToken, isWellFormedToken } from './secret-token.ts';
import { composeSignInMail } from './sign-in-mail.ts';

export const SIGN_IN_TTL_MS = 15 * 60_000;
const HOUR = 3600_000;
/** Links mailed per address per hour, and sign-in requests per client address per hour. */
export const SIGN_IN_LIMITS = { perEmail: 5, perIp: 20 } as const;
/**
 * Waits before each new try of a link whose store or mail server failed: the customer is waiting
 * for it, and every try lands well within the link's lifetime.
 */
export const SIGN_IN_RETRY_MS = [2_000, 10_000, 30_000, 60_000, 120_000];

// No whitespace, separators, control or format characters (bidi controls such as U+202E, zero-width
// ones), characters drawn blank (U+3164, U+2800) or lone surrogates: an address is echoed in
// pages, logs and mail headers, where they would disguise it.
const EMAIL =
  /^[^\s\p{Z}\p{Cc}\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}\u2800@<>()",;:\\[\]]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/u;

export type SignInRequestResult =
  | { ok: true; email: string }
  | { ok: false; reason: 'invalid_email' }
  | { ok: false; reason: 'rate_limited'; retryAfterSeconds: number };

export type VerifyResult =
  | { ok: true; account: Account; created: boolean }
  | { ok: false; reason: 'invalid_link' | 'signup_closed' };

export interface SignInDeps {
  accounts: AccountStore;
  store: SessionStore;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  inFlight: InFlight;
  signup: 'open' | 'closed';
  publicUrl: string;
  mailFrom: string;
  /** Aborted when the service stops: a link still being retried is given up then. */
  stopping: AbortSignal;
  retryDelaysMs?: readonly number[];
}

export function normalizeEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  return email.length <= 254 && EMAIL.test(email) ? email : null;
}

/** Sign-in (and self sign-up) by a one-time link sent by e-mail. */
export class SignInService {
  constructor(private readonly d: SignInDeps) {}

  /**
   * Accepts a request for a link. Whether the address has an account decides only what happens
   * after the answer (a mail or nothing): the answer and its timing are the same either way.
   */
  async request(rawEmail: string, clientIp: string): Promise<SignInRequestResult> {
    const email = normalizeEmail(rawEmail);
    if (!email) return { ok: false, reason: 'invalid_email' };
    const byIp = await this.d.rateLimiter.hit(`signin:ip:${clientIp}`, SIGN_IN_LIMITS.perIp, HOUR);
    if (!byIp.allowed) return { ok: false, reason: 'rate_limited', retryAfterSeconds: byIp.retryAfterSeconds };
    const addressKey = createHash('sha256').update(email).digest('hex').slice(0, 32);
    const byEmail = await this.d.rateLimiter.hit(`signin:email:${addressKey}`, SIGN_IN_LIMITS.perEmail, HOUR);
    if (!byEmail.allowed) return { ok: false, reason: 'rate_limited', retryAfterSeconds: byEmail.retryAfterSeconds };
    void this.d.inFlight.track(
      this.deliver(email).catch((err) => this.d.logger.error({ err }, 'sign-in e-mail not sent')),
    );
    return { ok: true, email };
  }

  /**
   * Stores a new link and mails it, trying again while the store or the mail server is down: the
   * link is held in memory only, so a stop gives it up (the customer asks again).
   */
  private async deliver(email: string): Promise<void> {
    const token = generateSecretToken('psl');
    const delays = this.d.retryDelaysMs ?? SIGN_IN_RETRY_MS;
    let expiresAt: number | null = null;
    for (let attempt = 0; ; attempt++) {
      try {
        if (expiresAt === null) {
          if (this.d.signup === 'closed' && !(await this.d.accounts.findAccountByEmail(email))) return;
          const now = this.d.clock();
          await this.d.store.insertSignInToken({
            hash: hashSecretToken(token),
            email,
            now,
            expiresAt: now + SIGN_IN_TTL_MS,
          });
          expiresAt = now + SIGN_IN_TTL_MS;
        }
        await this.d.mailer.send(this.composeMail(email, token, expiresAt));
        return;
      } catch (err) {
        const wait = delays[attempt];
        if (wait === undefined || this.d.stopping.aborted) throw err;
        this.d.logger.warn({ err, retryInMs: wait }, 'sign-in e-mail not sent yet; trying again');
        await sleep(wait, undefined, { signal: this.d.stopping }).catch(() => {
          throw err;
        });
      }
    }
  }

  private composeMail(email: string, token: string, expiresAt: number) {
    return composeSignInMail({
      to: email,
      from: this.d.mailFrom,
      link: `${this.d.publicUrl}/account/verify?token=${token}`,
      validMinutes: Math.max(1, Math.floor((expiresAt - this.d.clock()) / 60_000)),
      messageId: `<signin-${hashSecretToken(token).slice(0, 24)}@${messageIdDomain(this.d.mailFrom)}>`,
    });
  }

  /** Uses a link: at most once, within its lifetime. A new address gets a free account when sign-up is open. */
  async verify(token: unknown): Promise<VerifyResult> {
    if (!isWellFormedToken('psl', token)) return { ok: false, reason: 'invalid_link' };
    const used = await this.d.store.consumeSignInToken(hashSecretToken(token), this.d.clock());
    if (!used) return { ok: false, reason: 'invalid_link' };
    const existing = await this.d.accounts.findAccountByEmail(used.email);
    if (existing) return { ok: true, account: existing, created: false };
    // Sign-up closed after the link was sent: the link was for a new account.
    if (this.d.signup === 'closed') return { ok: false, reason: 'signup_closed' };
    try {
      const account = await this.d.accounts.createAccount({ email: used.email, plan: 'free', now: this.d.clock() });
      return { ok: true, account, created: true };
    } catch (err) {
      // Another link for the same new address was used at the same moment: its account is this one.
      const raced = err instanceof AddressTakenError ? await this.d.accounts.findAccountByEmail(used.email) : null;
      if (!raced) throw err;
      return { ok: true, account: raced, created: false };
    }
  }
}
