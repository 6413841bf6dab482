/**
 * A map whose entries expire: lookups are exact (an expired entry is never returned), while dropping
 * expired entries is amortised, so that issuing tokens and sessions costs the same however many exist.
 * It holds at most `maxEntries`: past it, an insert drops the oldest entry, so that a client issuing
 * tokens or sessions in a loop cannot run the sandbox out of memory.
 */

/** Below this size a store is never swept: too small for the work to matter. */
const MIN_SWEEP_SIZE = 64;

export class ExpiringMap<V> {
  private readonly entries = new Map<string, { value: V; expiresAtMs: number }>();
  /** The size after the last sweep: the next one waits until the store has doubled. */
  private sizeAfterSweep = 0;
  /** Entries looked at by sweeps so far (what an insert costs, for tests; no timing involved). */
  sweptEntries = 0;

  constructor(
    private readonly now: () => number,
    private readonly maxEntries: number,
  ) {
    if (!(maxEntries >= 1)) throw new RangeError("an expiring map holds at least one entry");
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value of a key that has not expired. */
  get(key: string): V | undefined {
    const found = this.lookup(key);
    return found && !found.expired ? found.value : undefined;
  }

  /** A key's value and whether it has expired (until a sweep drops it, an expired key is still told apart). */
  lookup(key: string): { value: V; expired: boolean } | undefined {
    const entry = this.entries.get(key);
    return entry && { value: entry.value, expired: this.now() >= entry.expiresAtMs };
  }

  /**
   * Adds an entry. Expired ones are swept only once the store has doubled since the last sweep:
   * each sweep then visits at most twice the entries added since the one before, so an insert
   * costs O(1) amortised, and the store holds at most twice the live entries (plus a small floor).
   */
  set(key: string, value: V, expiresAtMs: number): void {
    if (this.entries.size >= Math.max(MIN_SWEEP_SIZE, 2 * this.sizeAfterSweep)) this.sweep();
    // A Map iterates in insertion order: its first key is the oldest, expired or not (tokens and
    // sessions each have one lifetime, so the oldest is also the first to expire).
    if (this.entries.size >= this.maxEntries && !this.entries.has(key))
      this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expiresAtMs });
  }

  private sweep(): void {
    const now = this.now();
    this.sweptEntries += this.entries.size;
    for (const [key, entry] of this.entries) if (now >= entry.expiresAtMs) this.entries.delete(key);
    this.sizeAfterSweep = this.entries.size;
  }
}
