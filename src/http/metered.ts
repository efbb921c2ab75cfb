import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticate, type AuthFailure } from '../auth/authenticate.ts';
import type { Container } from '../container.ts';
import { ClientGoneError, CommitOutcomeUnknownError } from '../errors.ts';
import type { Reservation, Usage } from '../quota/quota.ts';
import { accountPeriod } from '../quota/period.ts';
import { PLANS } from '../quota/plans.ts';
import type { Account } from '../storage/accounts/interface.ts';
import { watchHangUp } from './hang-up.ts';
import { ProblemError, type ProblemCode } from './problem.ts';

export type AuthStyle = 'screenshot' | 'content' | 'usage';

// DESIGN.md section 4: the same failure answers differently per endpoint family.
const AUTH_MATRIX: Record<AuthStyle, Record<AuthFailure, [number, ProblemCode]>> = {
  screenshot: {
    missing: [401, 'missing_api_key'],
    malformed: [401, 'invalid_api_key'],
    unknown: [401, 'invalid_api_key'],
    revoked: [401, 'invalid_api_key'],
  },
  content: {
    missing: [401, 'missing_api_key'],
    malformed: [403, 'invalid_api_key'],
    unknown: [403, 'invalid_api_key'],
    revoked: [403, 'invalid_api_key'],
  },
  usage: {
    missing: [401, 'missing_api_key'],
    malformed: [401, 'invalid_api_key'],
    unknown: [403, 'unknown_api_key'],
    revoked: [403, 'unknown_api_key'],
  },
};

const AUTH_DETAIL: Record<AuthFailure, string> = {
  missing: 'Send your API key in the X-API-KEY header.',
  malformed:
    'The X-API-KEY header is not a valid postshot key (psk_ followed by 38 letters and digits, with a checksum): check that it was copied whole.',
  unknown: 'No active API key matches the X-API-KEY header.',
  revoked: 'This API key has been revoked.',
};

const MINUTE = 60_000;

export interface Caller {
  account: Account;
  keyId: string;
}

export function setQuotaHeaders(reply: FastifyReply, usage: Pick<Usage, 'remaining' | 'limit'>): void {
  reply.header('X-Quota-Remaining', String(usage.remaining));
  reply.header('X-Quota-Limit', String(usage.limit));
}

function rateHeaders(d: { limit: number; remaining: number; resetSeconds: number }): Record<string, string> {
  return {
    'RateLimit-Limit': String(d.limit),
    'RateLimit-Remaining': String(d.remaining),
    'RateLimit-Reset': String(d.resetSeconds),
  };
}

/**
 * Authenticates the request and applies the per-key rate limit. Throws a ProblemError with the
 * status of the auth matrix, or 429. Only failing requests count against their address and only
 * they are refused for it: a valid key is never locked out by other clients behind the same NAT.
 */
export async function authorize(
  c: Container,
  request: FastifyRequest,
  reply: FastifyReply,
  style: AuthStyle,
): Promise<Caller> {
  // The checksum refuses made-up keys without a database read; only well-formed ones are looked up.
  const auth = await authenticate(c.accounts, request.headers['x-api-key']);
  if (!auth.ok) {
    const guard = await c.rateLimiter.hit(`authfail:${request.ip}`, c.config.authFailureLimit, MINUTE);
    if (!guard.allowed) {
      throw new ProblemError('rate_limited', 'Too many failed authentication attempts from this address.', 429, {
        'Retry-After': String(guard.retryAfterSeconds),
        ...rateHeaders(guard),
      });
    }
    const [status, code] = AUTH_MATRIX[style][auth.reason];
    throw new ProblemError(code, AUTH_DETAIL[auth.reason], status);
  }
  c.account.lastUsed.record(auth.key.id);
  const limit = c.config.rateLimits[auth.account.plan];
  const decision = await c.rateLimiter.hit(`key:${auth.key.id}`, limit, MINUTE);
  for (const [name, value] of Object.entries(rateHeaders(decision))) reply.header(name, value);
  const caller = { account: auth.account, keyId: auth.key.id };
  if (style !== 'usage') meteredCallers.set(request, caller);
  if (!decision.allowed) {
    throw new ProblemError(
      'rate_limited',
      `Rate limit of ${limit} requests per minute for the ${auth.account.plan} plan reached; retry in ${decision.retryAfterSeconds} s.`,
      429,
      { 'Retry-After': String(decision.retryAfterSeconds) },
    );
  }
  return caller;
}

// Callers of metered routes, known from the moment their key is: every later answer, errors
// from body parsing included, carries their quota headers.
const meteredCallers = new WeakMap<FastifyRequest, Caller>();

/**
 * A route-level onRequest hook: authenticates before the body is read, so a request without a
 * valid key is 401/403 whatever its body, and parser refusals (400, 413, 415) show the quota.
 */
export function authorizeFirst(c: Container, style: AuthStyle) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await authorize(c, request, reply, style);
  };
}

/** Sets the quota headers of a known metered caller when an answer lacks them (error paths). */
export async function applyCallerQuota(c: Container, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const caller = meteredCallers.get(request);
  if (!caller || reply.hasHeader('X-Quota-Remaining')) return;
  setQuotaHeaders(reply, await c.quota.usage(caller.account));
}

/**
 * Holds the credits of one request. Everything reserved and not committed is refunded when the
 * request ends, whatever way it ends; quota headers always show the state after this request.
 */
export class Meter {
  private readonly open: Reservation[] = [];
  private last: Usage | null = null;
  /** A charge's COMMIT was cut: the quota may not be readable now, and the answer must not wait on it. */
  private outcomeUnknown = false;

  constructor(
    private readonly c: Container,
    readonly caller: Caller,
    private readonly requestId: string,
    private readonly endpoint: string,
    /** Aborts when the client closes its connection before the answer. */
    readonly signal: AbortSignal,
  ) {}

  /** Reserves up to `amount` credits (all of them unless `partial`); returns how many were granted. */
  async reserve(amount: number, partial = false): Promise<Reservation | null> {
    const outcome = await this.c.quota.reserve(this.caller.account, amount, {
      requestId: this.requestId,
      endpoint: this.endpoint,
      partial,
    });
    this.last = outcome.usage;
    if (!outcome.ok) return null;
    this.open.push(outcome.reservation);
    return outcome.reservation;
  }

  /** Charges `amount` credits outright (reserved and committed together); false when they are not there. */
  async charge(amount: number): Promise<boolean> {
    try {
      const outcome = await this.c.quota.charge(this.caller.account, amount, {
        requestId: this.requestId,
        endpoint: this.endpoint,
      });
      this.last = outcome.usage;
      return outcome.ok;
    } catch (err) {
      // Cut mid-COMMIT, after the credits were found and taken: the charge stands or never
      // happened. The result in hand goes out either way; a 503 could leave it paid for and unsent.
      if (!(err instanceof CommitOutcomeUnknownError)) throw err;
      this.noteOutcomeUnknown();
      return true;
    }
  }

  /** Returns `amount` credits of an open reservation. */
  async refund(reservation: Reservation, amount: number): Promise<void> {
    const given = await this.c.quota.refund(reservation, amount);
    if (this.last) this.last = { ...this.last, used: this.last.used - given, remaining: this.last.remaining + given };
  }

  async commitAll(): Promise<void> {
    for (const r of this.open.splice(0)) {
      try {
        await this.c.quota.commit(r);
      } catch (err) {
        // The database lost the connection mid-COMMIT: the charge is committed, or still pending
        // and refunded by the reservation sweeper. Either way the answer must go out: a 503 here
        // would leave a committed charge for an answer never sent.
        if (!(err instanceof CommitOutcomeUnknownError)) throw err;
        this.noteOutcomeUnknown();
      }
    }
  }

  /** The answer goes out unsure of its charge: at worst it is free, never paid for and unsent. */
  private noteOutcomeUnknown(): void {
    this.outcomeUnknown = true;
    this.c.logger.warn(
      { requestId: this.requestId, accountId: this.caller.account.id },
      'charge outcome unknown: the database connection was cut during COMMIT; answered, and the charge stands or its reservation is refunded',
    );
  }

  async refundAll(): Promise<void> {
    for (const r of this.open.splice(0)) await this.refund(r, r.granted);
  }

  async applyHeaders(reply: FastifyReply): Promise<void> {
    if (this.last) return setQuotaHeaders(reply, this.last);
    try {
      setQuotaHeaders(reply, await this.c.quota.usage(this.caller.account));
    } catch (err) {
      if (!this.outcomeUnknown) throw err;
    }
  }
}

export interface MeteredWork<T> {
  style: AuthStyle;
  endpoint: string;
  cost: number;
  /** Runs after authentication, before any charge: throw a ProblemError to refuse for free. */
  validate?: (caller: Caller) => void;
  /**
   * The result when it is already in hand without upstream or render work (a cached post or
   * render), else undefined. Then its credits are reserved and committed in one write instead of
   * two; when they are not there the result is dropped and nothing is charged.
   */
  inHand?: () => Promise<T | undefined>;
  work: (meter: Meter) => Promise<T>;
  /** For HEAD: throws the problem GET would answer when it is known without upstream work. */
  probe?: () => Promise<void>;
}

/**
 * The route helper every metered endpoint uses: authenticate, rate-limit, validate, then run the
 * work inside a Meter. `cost` credits are reserved before the work (403 quota_exceeded when they
 * are not there), committed when it succeeds and refunded when it throws.
 */
export async function runMetered<T>(
  c: Container,
  request: FastifyRequest,
  reply: FastifyReply,
  options: MeteredWork<T>,
): Promise<T> {
  const caller = meteredCallers.get(request) ?? (await authorize(c, request, reply, options.style));
  return c.inFlight.track(runInMeter(c, request, reply, caller, options));
}

/** The refusal says what the caller can do: wait for the reset (when), or ask for a paid plan. */
export function quotaExceeded(c: Container, caller: Caller): ProblemError {
  const { plan } = caller.account;
  const { credits } = PLANS[plan];
  const { end } = accountPeriod(caller.account, c.clock());
  return new ProblemError(
    'quota_exceeded',
    end === null
      ? `The ${plan} plan's quota is used up (${credits} credits, one-time: they do not reset). ` +
          'Ask the operator of this service for a paid plan.'
      : `The ${plan} plan's quota is used up for this period (${credits} credits); ` +
          `it resets at ${new Date(end).toISOString()}.`,
  );
}

/**
 * HEAD on a metered route: the status and headers GET would answer from what is known without
 * rendering, an upstream fetch or a charge (key, rate limit, parameters, plan, quota, and
 * `probe`, e.g. a post cached as missing). Quota headers show the current state.
 */
export async function probeMetered(
  c: Container,
  request: FastifyRequest,
  reply: FastifyReply,
  options: MeteredWork<unknown>,
): Promise<void> {
  const caller = meteredCallers.get(request) ?? (await authorize(c, request, reply, options.style));
  const usage = await c.quota.usage(caller.account);
  setQuotaHeaders(reply, usage);
  options.validate?.(caller);
  if (usage.remaining < options.cost) throw quotaExceeded(c, caller);
  await options.probe?.();
}

async function runInMeter<T>(
  c: Container,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: Caller,
  options: MeteredWork<T>,
): Promise<T> {
  // A client that hangs up before its answer is not charged for it.
  const gone = watchHangUp(reply);
  const meter = new Meter(c, caller, request.id, options.endpoint, gone.signal);
  try {
    options.validate?.(caller);
    if (options.cost > 0 && options.inHand) {
      const ready = await options.inHand();
      if (ready !== undefined) {
        // Charged at once, so only while someone is there to receive it.
        if (gone.signal.aborted) throw new ClientGoneError();
        if (!(await meter.charge(options.cost))) throw quotaExceeded(c, caller);
        return ready;
      }
    }
    if (options.cost > 0 && !(await meter.reserve(options.cost))) throw quotaExceeded(c, caller);
    const result = await options.work(meter);
    if (gone.signal.aborted) throw new ClientGoneError();
    await meter.commitAll();
    return result;
  } catch (err) {
    await meter.refundAll();
    throw err;
  } finally {
    gone.stop();
    await meter.applyHeaders(reply);
  }
}
