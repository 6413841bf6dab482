/**
 * Builds the sandbox's deterministic data set from a seed and a reference date. Nothing here reads
 * the wall clock or Math.random: the same seed and reference date always give the same data.
 * Each area draws from its own fork of the seed's generator (see Prng.fork), in a fixed order.
 */
import { Prng } from "../prng.js";
import { buildBanking } from "./banking.js";
import { addOtherConsents } from "./consents.js";
import { buildEnergy, makePlans } from "./energy.js";
import { IdMaker } from "./ids.js";
import { deriveIncomes } from "./income.js";
import type { DataSet, EndUser, Institution, Transaction } from "./model.js";
import { makeEndUsers } from "./people.js";
import { productsFor } from "./products.js";
import { BANKS, RETAILERS } from "./reference.js";

/** Options of the data set: the seed and the last day the data covers. */
export interface DataSetOptions {
  seed: number | string;
  referenceDate: string;
}

/** Builds the whole data set. */
export function generateDataSet({ seed, referenceDate }: DataSetOptions): DataSet {
  const root = new Prng(seed);
  const ids = new IdMaker(root.fork("ids"));
  const institutions = makeInstitutions(root.fork("institutions"));
  const people = makeEndUsers(root.fork("users"), ids, referenceDate);
  const products = BANKS.flatMap((bank) =>
    productsFor(bank, referenceDate, root.fork(`products:${bank.id}`)),
  );

  const data: DataSet = {
    referenceDate,
    institutions,
    endUsers: people,
    consents: [],
    products,
    accounts: [],
    transactions: [],
    payees: [],
    scheduledPayments: [],
    directDebits: [],
    energyAccounts: [],
    servicePoints: [],
    concessions: [],
    derRecords: [],
    plans: makePlans(root.fork("plans"), ids, referenceDate),
    incomes: [],
  };
  addHoldings(data, root.fork("holdings"), ids);
  data.transactions.sort(newestFirst);
  data.incomes = deriveIncomes(data.transactions, data.accounts);
  return data;
}

/** The banking and energy holdings of the person and the organisation, then the team's other consents. */
function addHoldings(data: DataSet, rng: Prng, ids: IdMaker): void {
  const [person, organisation] = data.endUsers as [EndUser, EndUser];
  const banks = shuffle(
    rng,
    BANKS.map((bank) => bank.id),
  );
  // The person banks first with CBA, as the documents' examples do (`acc_cba_7731`).
  const cba = banks.indexOf("inst_cba");
  [banks[0], banks[cba]] = [banks[cba]!, banks[0]!];
  const retailers = shuffle(
    rng,
    RETAILERS.map((retailer) => retailer.id),
  );
  const personBanks = [banks[0]!, banks[1]!, banks[2]!];
  buildBanking(data, person, rng.fork("person-banking"), ids, personBanks, "person");
  const organisationBanks = [banks[3]!, banks[4]!, banks[3]!];
  buildBanking(data, organisation, rng.fork("org-banking"), ids, organisationBanks, "organisation");
  buildEnergy(data, person, rng.fork("person-energy"), ids, retailers[0]!, 3);
  buildEnergy(data, organisation, rng.fork("org-energy"), ids, retailers[1]!, 2);
  addOtherConsents(data, rng.fork("other-consents"), ids);
}

/** Newest first by posting date, then by generation sequence. */
export function newestFirst(a: Transaction, b: Transaction): number {
  if (a.postedDate !== b.postedDate) return a.postedDate < b.postedDate ? 1 : -1;
  return b.sequence - a.sequence;
}

function shuffle<T>(rng: Prng, items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** The banks and the energy retailers, one bank with a degraded connection. */
function makeInstitutions(rng: Prng): Institution[] {
  const degraded = rng.pick(BANKS).id;
  const banking: Institution[] = BANKS.map((bank, index) => ({
    id: bank.id,
    name: bank.name,
    industry: "banking",
    brand: bank.brand,
    connectionStatus: bank.id === degraded ? "DEGRADED" : "OPERATIONAL",
    isAccessible: true,
    priority: index + 1,
    recommended: index < 4,
    bsbs: bank.bsbs,
    website: bank.website,
  }));
  const energy: Institution[] = RETAILERS.map((retailer, index) => ({
    id: retailer.id,
    name: retailer.name,
    industry: "energy",
    brand: retailer.brand,
    connectionStatus: "OPERATIONAL",
    isAccessible: index !== RETAILERS.length - 1,
    priority: index + 1,
    recommended: index < 3,
    bsbs: [],
    website: retailer.website,
  }));
  return [...banking, ...energy];
}
