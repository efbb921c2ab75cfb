import { DependencyDownError } from '../errors.ts';

export interface RetryingOpenOptions {
  /** What callers are told is down while it is not open. */
  dependency: DependencyDownError['dependency'];
  /** Failures that will not pass by themselves: the first attempt rejects with them. */
  isLasting(err: unknown): boolean;
  /** After a failed attempt, with the delay until the next one. */
  onFailure?(err: unknown, attempt: number, retryInMs: number): void;
  onOpen?(attempts: number): void;
  firstDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Opens a backing service that may not be there yet: a first attempt, then attempts in the
 * background with a growing delay (never one per request) until it opens or is closed. Until
 * then `get` throws DependencyDownError, which the HTTP layer answers with 503.
 */
export class RetryingOpen<T> {
  private value: T | undefined;
  private lastError: unknown;
  private attempts = 0;
  private timer: NodeJS.Timeout | null = null;
  private attempting: Promise<void> | null = null;
  private closing: Promise<void> | null = null;
  private resolveOpened!: (value: T) => void;
  /** Settles when it opens; never, if it is closed first. */
  readonly opened = new Promise<T>((resolve) => {
    this.resolveOpened = resolve;
  });

  constructor(
    private readonly open: () => Promise<T>,
    private readonly closeValue: (value: T) => Promise<void>,
    private readonly options: RetryingOpenOptions,
  ) {}

  /**
   * The first attempt: resolves once it opened or failed in a way that may pass (the attempts go
   * on in the background); rejects on a lasting failure, and then tries no more.
   */
  async start(): Promise<void> {
    await this.attempt();
    if (this.value === undefined && this.options.isLasting(this.lastError)) throw this.lastError;
  }

  get isOpen(): boolean {
    return this.value !== undefined;
  }

  get(): T {
    if (this.value === undefined || this.closing)
      throw new DependencyDownError(this.options.dependency, this.lastError);
    return this.value;
  }

  /** Stops the attempts (waiting for one under way) and closes what was opened. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.stopRetrying();
      await this.attempting;
      if (this.value !== undefined) await this.closeValue(this.value);
    })();
    return this.closing;
  }

  private attempt(): Promise<void> {
    this.attempting ??= this.tryOpen().finally(() => {
      this.attempting = null;
    });
    return this.attempting;
  }

  private async tryOpen(): Promise<void> {
    this.attempts++;
    try {
      const value = await this.open();
      if (this.closing) {
        await this.closeValue(value);
        return;
      }
      this.value = value;
      this.lastError = undefined;
      this.options.onOpen?.(this.attempts);
      this.resolveOpened(value);
    } catch (err) {
      this.lastError = err;
      // A lasting failure of the first attempt is start()'s to report; no retries follow it.
      if (this.closing || (this.attempts === 1 && this.options.isLasting(err))) return;
      const delay = this.nextDelay();
      this.options.onFailure?.(err, this.attempts, delay);
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.attempt();
      }, delay);
      // Waiting for a server must not keep a process alive that has nothing else to do.
      this.timer.unref();
    }
  }

  /** Doubles from the first delay up to the cap, with jitter so a fleet does not retry in step. */
  private nextDelay(): number {
    const first = this.options.firstDelayMs ?? 500;
    const max = this.options.maxDelayMs ?? 10_000;
    const base = Math.min(max, first * 2 ** Math.min(this.attempts - 1, 20));
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }

  private stopRetrying(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
