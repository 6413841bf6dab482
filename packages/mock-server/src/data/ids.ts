/** Ids of the data set: random from the seed, except the ids the documents' examples use. */
import type { Prng } from "../prng.js";

/**
 * Ids the documents' examples use, so that an id copied from the reference names data here. Each is
 * given to the nth record made with a prefix (`{n: id}`; a list means 0, 1, ...), and the random draw
 * still happens, so every other id stays as the seed makes it. The records are built in a fixed order
 * (generate.ts), the same for every seed; the comments say which record each id names.
 */
/** The person of the data set, the end user of the documents' examples. */
export const DOCUMENTED_PERSON = "eu_2f9c81d4";

export const DOCUMENTED_IDS: Readonly<Record<string, Readonly<Record<number, string>>>> = {
  eu: [DOCUMENTED_PERSON, "eu_7a03e5b2"], // the person, the organisation
  cns: ["cns_5e1f0a92"], // the person's CBA consent
  // Arrangements in the order consents are made: the person's banks (CBA, Westpac, Macquarie, NAB,
  // ANZ), the organisation's two banks, the person's AGL, Origin Energy and EnergyAustralia, the
  // organisation's Red Energy, the ten other end users' consents, the person's revoked Bendigo consent.
  arr: {
    0: "arr_7c21e9b0",
    1: "arr_5a8e2d61",
    2: "arr_2d6f8a19",
    3: "arr_9e02c4f1",
    4: "arr_4b7d10e3",
    7: "arr_8d2c41f7",
    8: "arr_3f60b2e9",
    9: "arr_5e02d8b1",
    21: "arr_1b9e77c0",
  },
  acc_cba: ["acc_cba_7731", "acc_cba_9902"], // the person's everyday account and home loan
  acc_westpac: ["acc_wbc_3310"], // the person's credit card
  acc_mqg: ["acc_mqg_6630"], // the person's savings
  acc_nab: ["acc_nab_5528"], // the person's term deposit
  acc_anz: ["acc_anz_2284"], // the person's (closed) car loan
  acc_agl: ["acc_agl_5520"], // the person's energy accounts
  acc_origin: ["acc_origin_3318"],
  acc_energyaustralia: ["acc_energyaustralia_7064"],
  nmi: { 0: "6305123456", 2: "4103987654" }, // the first service points of the person's two accounts
  con_agl: ["con_agl_0417"], // the person's concessions
  con_origin: ["con_origin_0288", "con_origin_0291"],
  pye_cba: { 0: "pye_cba_0051", 4: "pye_cba_0063", 8: "pye_cba_0078" }, // domestic, biller, international
  sp_cba: ["sp_cba_0193", "sp_cba_0207", "sp_cba_0214"], // the person's first scheduled payments
  plan_agl: ["AGL123456MRE4", "AGL654321MRG2"], // the first two plans of AGL
  plan_origin: ["ORI789012MR"], // the first plan made for Origin Energy (documented.ts lists it last)
};

/** The four newest transactions of the person's everyday account, newest first. */
export const DOCUMENTED_TRANSACTIONS = {
  accountId: "acc_cba_7731",
  ids: ["txn_cba_7731_004812", "txn_cba_7731_004809", "txn_cba_7731_004801", "txn_cba_7731_004795"],
} as const;

export class IdMaker {
  private readonly used = new Set<string>(Object.values(DOCUMENTED_IDS).flatMap((ids) => Object.values(ids)));
  private readonly made = new Map<string, number>();
  constructor(private readonly rng: Prng) {}

  /** A new id `<prefix>_<random hex>`, or the documented id of this record. */
  make(prefix: string, length = 8): string {
    for (;;) {
      const id = `${prefix}_${this.rng.hex(length)}`;
      if (!this.used.has(id)) {
        this.used.add(id);
        return this.documented(prefix) ?? id;
      }
    }
  }

  /** Counts a record made with `prefix` (its id made elsewhere) and gives its documented id, if any. */
  documented(prefix: string): string | undefined {
    const count = this.made.get(prefix) ?? 0;
    this.made.set(prefix, count + 1);
    return DOCUMENTED_IDS[prefix]?.[count];
  }
}
