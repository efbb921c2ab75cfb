import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { AccountStore } from '../storage/accounts/interface.ts';

/**
 * Remembers when each key was last used and writes it in one batch per interval, so a metered
 * request costs no extra database write. Each instance flushes its own; the store keeps the latest.
 */
export class LastUsedRecorder {
  private pendingUses = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Pick<AccountStore, 'touchKeys'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  record(keyId: string): void {
    this.pendingUses.set(keyId, this.clock());
  }

  /** A use not yet written, so this instance's pages show it at once. */
  pending(keyId: string): number | undefined {
    return this.pendingUses.get(keyId);
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pendingUses.size === 0) return;
      const batch = this.pendingUses;
      this.pendingUses = new Map();
      try {
        await this.store.touchKeys(batch);
      } catch (err) {
        // Put the batch back (newer uses win) and try again at the next interval.
        for (const [id, at] of batch) if (!((this.pendingUses.get(id) ?? 0) > at)) this.pendingUses.set(id, at);
        this.logger.warn({ err }, 'key last-used times not written; will retry');
      }
    });
    return this.flushing;
  }

  start(intervalMs = 30_000): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }
}
