/** A small deterministic PRNG (mulberry32) seeded from a number or string, with the helpers the data set needs. */
export class Prng {
  private state: number;

  constructor(seed: number | string) {
    this.state = typeof seed === "number" ? seed >>> 0 : hashString(seed);
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** A string of decimal digits. */
  digits(length: number): string {
    let out = "";
    for (let i = 0; i < length; i++) out += String(this.int(0, 9));
    return out;
  }

  /** A string of lowercase hexadecimal digits. */
  hex(length: number): string {
    let out = "";
    for (let i = 0; i < length; i++) out += this.int(0, 15).toString(16);
    return out;
  }

  /** An amount in cents between two dollar values. */
  cents(minDollars: number, maxDollars: number): number {
    return this.int(Math.round(minDollars * 100), Math.round(maxDollars * 100));
  }

  /** A derived generator, so that adding data in one area does not shift another. */
  fork(label: string): Prng {
    return new Prng((hashString(label) ^ this.int(0, 0xffffffff)) >>> 0);
  }
}

/** FNV-1a 32-bit hash. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
