/** Ids of the data set: random from the seed, except the ids the documents' examples use. */
import type { Prng } from "../prng.js";

/**
 * Ids the documents' examples use, given to the first records made with each prefix, so a request
 * copied from the reference reaches data (the person, the organisation, the first consent and the
 * first CBA account). The random draw still happens, so every other id stays as the seed makes it.
 */
export const DOCUMENTED_IDS: Readonly<Record<string, readonly string[]>> = {
  eu: ["eu_2f9c81d4", "eu_7a03e5b2"],
  cns: ["cns_5e1f0a92"],
  acc_cba: ["acc_cba_7731"],
};

export class IdMaker {
  private readonly used = new Set<string>(Object.values(DOCUMENTED_IDS).flat());
  private readonly made = new Map<string, number>();
  constructor(private readonly rng: Prng) {}
  make(prefix: string, length = 8): string {
    for (;;) {
      const id = `${prefix}_${this.rng.hex(length)}`;
      if (!this.used.has(id)) {
        this.used.add(id);
        const count = this.made.get(prefix) ?? 0;
        this.made.set(prefix, count + 1);
        return DOCUMENTED_IDS[prefix]?.[count] ?? id;
      }
    }
  }
}
