/**
 * Metered work still running. A client that hangs up does not stop its request's work (the
 * charge is committed or refunded when it ends), so shutdown waits for this set to empty before
 * it closes the stores and the render pool that work still uses.
 */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>();

  track<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.running.add(settled);
    void settled.then(() => this.running.delete(settled));
    return work;
  }

  get size(): number {
    return this.running.size;
  }

  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }
}
