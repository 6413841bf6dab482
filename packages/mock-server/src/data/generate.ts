/**
 * Builds the sandbox's deterministic data set from a seed and a reference date. Nothing here reads
 * the wall clock or Math.random: the same seed and reference date always give the same data.
 * Each area draws from its own fork of the seed's generator (see Prng.fork), in a fixed order.
 */
import { Prng } from "../prng.js";
import { buildBanking } from "./banking.js";
import { addOtherConsents } from "./consents.js";
import {
  documentEndUsers,
  documentHoldings,
  documentIncome,
  documentInstitutions,
  documentPlans,
  documentProducts,
  documentTransactions,
} from "./documented.js";
import { buildEnergy, makePlans } from "./energy.js";
import { DOCUMENTED_TRANSACTIONS, IdMaker } from "./ids.js";
import { deriveIncomes } from "./income.js";
import type { DataSet, EndUser, Institution, Transaction } from "./model.js";
import { makeEndUsers } from "./people.js";
import { productsFor } from "./products.js";
import { BANKS, RETAILERS } from "./reference.js";
import { addVariety } from "./variety.js";

/** Options of the data set: the seed and the last day the data covers. */
interface DataSetOptions {
  seed: number | string;
  referenceDate: string;
}

/** Builds the whole data set. */
export function generateDataSet({ seed, referenceDate }: DataSetOptions): DataSet {
  const root = new Prng(seed);
  const ids = new IdMaker(root.fork("ids"));
  root.fork("institutions"); // no longer drawn from, but forked as before so the forks after it stay the same
  const institutions = makeInstitutions();
  documentInstitutions(institutions);
  const people = makeEndUsers(root.fork("users"), ids, referenceDate);
  documentEndUsers(people);
  const products = BANKS.flatMap((bank) =>
    productsFor(bank, referenceDate, root.fork(`products:${bank.id}`)),
  );
  documentProducts(products, referenceDate);

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
  documentPlans(data.plans, referenceDate);
  addHoldings(data, root.fork("holdings"), ids);
  documentHoldings(data);
  data.transactions.sort(newestFirst);
  nameDocumentedTransactions(data.transactions);
  documentTransactions(data.transactions);
  documentIncome(data);
  data.transactions.sort(newestFirst);
  data.incomes = deriveIncomes(data.transactions, data.accounts);
  // After the documented records: the optional fields generation gives none, on records no example shows.
  addVariety(data);
  return data;
}

/** The banking and energy holdings of the person and the organisation, then the team's other consents. */
function addHoldings(data: DataSet, rng: Prng, ids: IdMaker): void {
  const [person, organisation] = data.endUsers as [EndUser, EndUser];
  // The person banks and buys energy where the documents' examples say (`acc_cba_7731`, `acc_agl_5520`),
  // and the organisation banks with two of the other banks and buys energy from Red Energy.
  const others = shuffle(
    rng,
    BANKS.map((bank) => bank.id).filter((id) => !PERSON_BANKS.includes(id)),
  );
  buildBanking(data, person, rng.fork("person-banking"), ids, PERSON_BANKS, "person");
  const organisationBanks = [others[0]!, others[1]!, others[0]!];
  buildBanking(data, organisation, rng.fork("org-banking"), ids, organisationBanks, "organisation");
  buildEnergy(data, person, rng.fork("person-energy"), ids, "inst_agl", 2);
  buildEnergy(data, person, rng.fork("person-energy-2"), ids, "inst_origin", 1);
  buildEnergy(data, person, rng.fork("person-energy-3"), ids, "inst_energyaustralia", 1);
  buildEnergy(data, organisation, rng.fork("org-energy"), ids, "inst_red_energy", 2);
  addOtherConsents(data, rng.fork("other-consents"), ids);
}

/** The person's banks, in the order of the account plans' `bankIndex` (banking.ts). */
const PERSON_BANKS = ["inst_cba", "inst_westpac", "inst_mqg", "inst_nab", "inst_anz"];

/** Gives the documented ids to the newest transactions of the documented account. */
function nameDocumentedTransactions(transactions: Transaction[]): void {
  const newest = transactions.filter((t) => t.accountId === DOCUMENTED_TRANSACTIONS.accountId);
  DOCUMENTED_TRANSACTIONS.ids.forEach((id, index) => {
    newest[index]!.id = id;
  });
}

/** Newest first by posting date, then by generation sequence. */
function newestFirst(a: Transaction, b: Transaction): number {
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

/** The banks and the energy retailers, all operational (documented.ts degrades the example's two). */
function makeInstitutions(): Institution[] {
  const banking: Institution[] = BANKS.map((bank, index) => ({
    id: bank.id,
    name: bank.name,
    industry: "banking",
    brand: bank.brand,
    connectionStatus: "OPERATIONAL",
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
    priority: 10 + index, // after the banks, as in the institutions example
    recommended: index < 3,
    bsbs: [],
    website: retailer.website,
  }));
  return [...banking, ...energy];
}
