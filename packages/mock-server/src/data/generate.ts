/**
 * Builds the sandbox's deterministic data set from a seed and a reference date. Nothing here reads
 * the wall clock or Math.random: the same seed and reference date always give the same data.
 */
import { addDays, addMonths, fromEpochDay, timestamp, toEpochDay, weekday } from "../dates.js";
import { Prng } from "../prng.js";
import { deriveIncomes } from "./income.js";
import type {
  Account,
  Address,
  Concession,
  Consent,
  DataSet,
  DerRecord,
  EndUser,
  EnergyAccount,
  EnergyPlan,
  Institution,
  Payee,
  ScheduledPayment,
  ServicePoint,
  Transaction,
} from "./model.js";
import { productsFor } from "./products.js";

const BANKS: { id: string; name: string; brand: string; bsbs: string[]; website: string }[] = [
  {
    id: "inst_cba",
    name: "Commonwealth Bank",
    brand: "cba",
    bsbs: ["062-000", "063-010", "064-123"],
    website: "https://www.commbank.com.au",
  },
  {
    id: "inst_westpac",
    name: "Westpac",
    brand: "westpac",
    bsbs: ["032-000", "033-075", "034-702"],
    website: "https://www.westpac.com.au",
  },
  {
    id: "inst_nab",
    name: "National Australia Bank",
    brand: "nab",
    bsbs: ["083-004", "082-057", "084-034"],
    website: "https://www.nab.com.au",
  },
  {
    id: "inst_anz",
    name: "ANZ",
    brand: "anz",
    bsbs: ["012-003", "013-006", "014-002"],
    website: "https://www.anz.com.au",
  },
  {
    id: "inst_mqg",
    name: "Macquarie Bank",
    brand: "mqg",
    bsbs: ["182-512", "182-222"],
    website: "https://www.macquarie.com.au",
  },
  { id: "inst_ing", name: "ING", brand: "ing", bsbs: ["923-100"], website: "https://www.ing.com.au" },
  {
    id: "inst_bendigo",
    name: "Bendigo Bank",
    brand: "bendigo",
    bsbs: ["633-000", "633-108"],
    website: "https://www.bendigobank.com.au",
  },
];

const RETAILERS: { id: string; name: string; brand: string; website: string }[] = [
  { id: "inst_agl", name: "AGL", brand: "agl", website: "https://www.agl.com.au" },
  { id: "inst_origin", name: "Origin Energy", brand: "origin", website: "https://www.originenergy.com.au" },
  {
    id: "inst_energyaustralia",
    name: "EnergyAustralia",
    brand: "energyaustralia",
    website: "https://www.energyaustralia.com.au",
  },
  { id: "inst_red_energy", name: "Red Energy", brand: "red-energy", website: "https://www.redenergy.com.au" },
  { id: "inst_alinta", name: "Alinta Energy", brand: "alinta", website: "https://www.alintaenergy.com.au" },
];

const FIRST_NAMES = [
  "Olivia",
  "Liam",
  "Charlotte",
  "Noah",
  "Amelia",
  "Jack",
  "Isla",
  "William",
  "Mia",
  "Oliver",
  "Chloe",
  "Lachlan",
];
const MIDDLE_NAMES = ["Grace", "James", "Rose", "Thomas", "Jane", "Edward", "May", "Patrick"];
const LAST_NAMES = [
  "Nguyen",
  "Smith",
  "Wilson",
  "Taylor",
  "Brown",
  "Williams",
  "Kelly",
  "Martin",
  "Chen",
  "Singh",
  "O'Brien",
  "Walker",
];
const ORG_NAMES = [
  "Harbourside Joinery",
  "Southern Cross Landscaping",
  "Banksia Bakery",
  "Blue Gum Electrical",
  "Wattle Street Physio",
];

const LOCALITIES: {
  suburb: string;
  state: string;
  postcode: string;
  distributor: string;
  nmiPrefix: string;
}[] = [
  { suburb: "Marrickville", state: "NSW", postcode: "2204", distributor: "Ausgrid", nmiPrefix: "4102" },
  {
    suburb: "Parramatta",
    state: "NSW",
    postcode: "2150",
    distributor: "Endeavour Energy",
    nmiPrefix: "4310",
  },
  { suburb: "Brunswick", state: "VIC", postcode: "3056", distributor: "Jemena", nmiPrefix: "6001" },
  { suburb: "Richmond", state: "VIC", postcode: "3121", distributor: "CitiPower", nmiPrefix: "6102" },
  { suburb: "Paddington", state: "QLD", postcode: "4064", distributor: "Energex", nmiPrefix: "3120" },
  { suburb: "Norwood", state: "SA", postcode: "5067", distributor: "SA Power Networks", nmiPrefix: "2001" },
  { suburb: "Braddon", state: "ACT", postcode: "2612", distributor: "Evoenergy", nmiPrefix: "7001" },
];

const STREETS: [string, string][] = [
  ["King", "STREET"],
  ["Illawarra", "ROAD"],
  ["Sydney", "ROAD"],
  ["Church", "STREET"],
  ["The", "PARADE"],
  ["Wattle", "AVENUE"],
  ["Banksia", "CRESCENT"],
  ["Lygon", "STREET"],
  ["Given", "TERRACE"],
  ["Lonsdale", "STREET"],
];

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

  const [person, organisation] = people as [EndUser, EndUser];
  const rng = root.fork("holdings");
  const bankOrder = shuffle(
    rng,
    BANKS.map((bank) => bank.id),
  );
  // The person banks first with CBA, as the documents' examples do (`acc_cba_7731`).
  const cba = bankOrder.indexOf("inst_cba");
  [bankOrder[0], bankOrder[cba]] = [bankOrder[cba]!, bankOrder[0]!];
  const retailerOrder = shuffle(
    rng,
    RETAILERS.map((retailer) => retailer.id),
  );

  buildBanking(
    data,
    person,
    rng.fork("person-banking"),
    ids,
    [bankOrder[0]!, bankOrder[1]!, bankOrder[2]!],
    "person",
  );
  buildBanking(
    data,
    organisation,
    rng.fork("org-banking"),
    ids,
    [bankOrder[3]!, bankOrder[4]!, bankOrder[3]!],
    "organisation",
  );
  buildEnergy(data, person, rng.fork("person-energy"), ids, retailerOrder[0]!, 3);
  buildEnergy(data, organisation, rng.fork("org-energy"), ids, retailerOrder[1]!, 2);
  addOtherConsents(data, rng.fork("other-consents"), ids);

  data.transactions.sort(newestFirst);
  data.incomes = deriveIncomes(data.transactions, data.accounts);
  return data;
}

/** Newest first by posting date, then by generation sequence. */
export function newestFirst(a: Transaction, b: Transaction): number {
  if (a.postedDate !== b.postedDate) return a.postedDate < b.postedDate ? 1 : -1;
  return b.sequence - a.sequence;
}

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

class IdMaker {
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

function shuffle<T>(rng: Prng, items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

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

function makeAddress(rng: Prng, type: Address["type"], localityIndex?: number): Address {
  const locality =
    localityIndex === undefined ? rng.pick(LOCALITIES) : LOCALITIES[localityIndex % LOCALITIES.length]!;
  const [streetName, streetType] = rng.pick(STREETS);
  const address: Address = {
    type,
    streetNumber: rng.int(1, 240),
    streetName,
    streetType,
    suburb: locality.suburb,
    state: locality.state,
    postcode: locality.postcode,
    country: "AUS",
  };
  if (rng.chance(0.3)) address.flatUnit = String(rng.int(1, 24));
  return address;
}

export function streetLine(address: Address): string {
  const street = `${address.streetNumber} ${address.streetName} ${titleCase(address.streetType)}`;
  return address.flatUnit ? `${address.flatUnit}/${street}` : street;
}

function titleCase(word: string): string {
  return word.charAt(0) + word.slice(1).toLowerCase();
}

/** An ABN with a valid checksum (weights 10,1,3,...,19 after subtracting 1 from the first digit). */
function makeAbn(rng: Prng): string {
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  for (;;) {
    const digits = [rng.int(1, 9), ...Array.from({ length: 10 }, () => rng.int(0, 9))];
    const sum = digits.reduce((acc, digit, i) => acc + (i === 0 ? digit - 1 : digit) * weights[i]!, 0);
    if (sum % 89 === 0) {
      const text = digits.join("");
      return `${text.slice(0, 2)} ${text.slice(2, 5)} ${text.slice(5, 8)} ${text.slice(8)}`;
    }
  }
}

function mobile(rng: Prng): string {
  return `+61 4${rng.digits(2)} ${rng.digits(3)} ${rng.digits(3)}`;
}

function makeEndUsers(rng: Prng, ids: IdMaker, referenceDate: string): EndUser[] {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const home = makeAddress(rng, "RESIDENTIAL");
  const person: EndUser = {
    id: ids.make("eu"),
    type: "PERSON",
    name: `${first} ${last}`,
    email: `${`${first}.${last}`.toLowerCase().replace(/'/g, "")}@example.com.au`,
    phone: mobile(rng),
    phoneType: "MOBILE",
    createdAt: timestamp(addDays(referenceDate, -rng.int(800, 900)), rng.int(480, 1200)),
    firstName: first,
    middleNames: [rng.pick(MIDDLE_NAMES)],
    lastName: last,
    dateOfBirth: addDays(referenceDate, -rng.int(28 * 365, 52 * 365)),
    addresses: [home, { ...home, type: "MAILING" }],
    hasData: true,
  };
  const orgName = `${rng.pick(ORG_NAMES)} Pty Ltd`;
  const office = makeAddress(rng, "BUSINESS");
  const organisation: EndUser = {
    id: ids.make("eu"),
    type: "ORGANISATION",
    name: orgName,
    email: `accounts@${orgName
      .replace(/ Pty Ltd$/, "")
      .replace(/[^A-Za-z]/g, "")
      .toLowerCase()}.com.au`,
    phone: `+61 2 9${rng.digits(3)} ${rng.digits(4)}`,
    phoneType: "BUSINESS",
    createdAt: timestamp(addDays(referenceDate, -rng.int(760, 790)), rng.int(480, 1200)),
    organisationName: orgName,
    abn: makeAbn(rng),
    acn: `${rng.digits(3)} ${rng.digits(3)} ${rng.digits(3)}`,
    addresses: [office, { ...makeAddress(rng, "REGISTERED"), type: "REGISTERED" }],
    hasData: true,
  };
  // Further end users of the team, without consented data, so that the end-user list pages.
  const others: EndUser[] = Array.from({ length: 10 }, (_, i) => {
    const givenName = FIRST_NAMES[(i + 3) % FIRST_NAMES.length]!;
    const familyName = LAST_NAMES[(i * 5 + 1) % LAST_NAMES.length]!;
    return {
      id: ids.make("eu"),
      type: "PERSON",
      name: `${givenName} ${familyName}`,
      email: `${`${givenName}.${familyName}${i}`.toLowerCase().replace(/'/g, "")}@example.com.au`,
      phone: mobile(rng),
      phoneType: "MOBILE",
      createdAt: timestamp(addDays(referenceDate, -rng.int(10, 700)), rng.int(480, 1200)),
      firstName: givenName,
      middleNames: [],
      lastName: familyName,
      dateOfBirth: addDays(referenceDate, -rng.int(20 * 365, 70 * 365)),
      addresses: [makeAddress(rng, "RESIDENTIAL")],
      hasData: false,
    };
  });
  return [person, organisation, ...others];
}

const BANKING_PERMISSIONS = [
  "bank:accounts.basic:read",
  "bank:accounts.detail:read",
  "bank:transactions:read",
  "bank:regular_payments:read",
  "bank:payees:read",
  "common:customer.basic:read",
];
const ENERGY_PERMISSIONS = [
  "energy:accounts.basic:read",
  "energy:accounts.concessions:read",
  "energy:billing:read",
  "energy:electricity.servicepoints.basic:read",
  "energy:electricity.der:read",
  "common:customer.basic:read",
];

function makeConsent(
  data: DataSet,
  rng: Prng,
  ids: IdMaker,
  endUser: EndUser,
  institutionId: string,
  active = true,
): Consent {
  const created = addDays(data.referenceDate, -rng.int(740, 760));
  const consent: Consent = {
    id: ids.make("cns"),
    arrangementId: ids.make("arr", 12),
    endUserId: endUser.id,
    institutionId,
    active,
    status: active ? "ACTIVE" : rng.chance(0.5) ? "EXPIRED" : "REVOKED",
    createdAt: timestamp(created, rng.int(480, 1200)),
    expiresAt: timestamp(addDays(data.referenceDate, active ? rng.int(30, 300) : -rng.int(5, 60)), 0),
    revokedAt: null,
    permissions:
      institutionId.startsWith("inst_") && BANKS.some((b) => b.id === institutionId)
        ? BANKING_PERMISSIONS
        : ENERGY_PERMISSIONS,
    sharingDurationDays: 365,
  };
  if (consent.status === "REVOKED") {
    // Revoked before its planned expiry, which may still lie ahead.
    consent.expiresAt = timestamp(addDays(data.referenceDate, rng.int(30, 200)), 0);
    consent.revokedAt = timestamp(addDays(data.referenceDate, -rng.int(5, 60)), 600);
  }
  data.consents.push(consent);
  return consent;
}

function consentFor(
  data: DataSet,
  rng: Prng,
  ids: IdMaker,
  endUser: EndUser,
  institutionId: string,
): Consent {
  return (
    data.consents.find((c) => c.endUserId === endUser.id && c.institutionId === institutionId && c.active) ??
    makeConsent(data, rng, ids, endUser, institutionId)
  );
}

function addOtherConsents(data: DataSet, rng: Prng, ids: IdMaker): void {
  for (const endUser of data.endUsers.filter((u) => !u.hasData)) {
    makeConsent(data, rng, ids, endUser, rng.pick(BANKS).id, rng.chance(0.6));
  }
  const [person] = data.endUsers;
  makeConsent(data, rng, ids, person!, "inst_bendigo", false);
}

function accountNumber(rng: Prng, category: string): string {
  if (category === "CRED_AND_CHRG_CARDS") return `4${rng.digits(15)}`;
  return rng.digits(rng.int(8, 9));
}

interface AccountPlan {
  productKey: string;
  category: string;
  bankIndex: number;
  nickname: string;
  openStatus?: "OPEN" | "CLOSED";
  isOwned?: boolean;
}

const PERSON_ACCOUNTS: AccountPlan[] = [
  { productKey: "everyday", category: "TRANS_AND_SAVINGS_ACCOUNTS", bankIndex: 0, nickname: "Everyday" },
  { productKey: "card", category: "CRED_AND_CHRG_CARDS", bankIndex: 0, nickname: "Credit Card" },
  { productKey: "mortgage", category: "RESIDENTIAL_MORTGAGES", bankIndex: 0, nickname: "Home Loan" },
  {
    productKey: "savings",
    category: "TRANS_AND_SAVINGS_ACCOUNTS",
    bankIndex: 1,
    nickname: "Rainy Day Savings",
  },
  { productKey: "term", category: "TERM_DEPOSITS", bankIndex: 2, nickname: "12 Month Term Deposit" },
  {
    productKey: "personal",
    category: "PERS_LOANS",
    bankIndex: 2,
    nickname: "Car Loan",
    openStatus: "CLOSED",
  },
  {
    productKey: "margin",
    category: "MARGIN_LOANS",
    bankIndex: 1,
    nickname: "Share Investment Loan",
    isOwned: false,
  },
];
const ORGANISATION_ACCOUNTS: AccountPlan[] = [
  {
    productKey: "business",
    category: "TRANS_AND_SAVINGS_ACCOUNTS",
    bankIndex: 0,
    nickname: "Business Operating",
  },
  { productKey: "overdraft", category: "OVERDRAFTS", bankIndex: 0, nickname: "Business Overdraft" },
  { productKey: "business-loan", category: "BUSINESS_LOANS", bankIndex: 1, nickname: "Equipment Loan" },
  { productKey: "lease", category: "LEASES", bankIndex: 1, nickname: "Van Lease" },
  { productKey: "business-card", category: "CRED_AND_CHRG_CARDS", bankIndex: 0, nickname: "Business Card" },
  { productKey: "trade", category: "TRADE_FINANCE", bankIndex: 0, nickname: "Import Finance" },
  { productKey: "trust", category: "REGULATED_TRUST_ACCOUNTS", bankIndex: 2, nickname: "Client Trust" },
];

function buildBanking(
  data: DataSet,
  endUser: EndUser,
  rng: Prng,
  ids: IdMaker,
  banks: string[],
  kind: "person" | "organisation",
): void {
  const plans = kind === "person" ? PERSON_ACCOUNTS : ORGANISATION_ACCOUNTS;
  const accounts: Account[] = [];
  for (const plan of plans) {
    const institutionId = banks[plan.bankIndex]!;
    const institution = data.institutions.find((i) => i.id === institutionId)!;
    const consent = consentFor(data, rng, ids, endUser, institutionId);
    const product = data.products.find((p) => p.id === `prd_${institution.brand}_${plan.productKey}`)!;
    const creationDate = addDays(data.referenceDate, -rng.int(800, 3000));
    const account: Account = {
      id: ids.make(`acc_${institution.brand}`, 6),
      endUserId: endUser.id,
      institutionId,
      consentId: consent.id,
      arrangementId: consent.arrangementId,
      productId: product.id,
      nickname: plan.nickname,
      displayName: `${product.name} ${plan.nickname === product.name ? "" : `(${plan.nickname})`}`.trim(),
      productName: product.name,
      category: plan.category,
      accountNumber: accountNumber(rng, plan.category),
      bsb: rng.pick(institution.bsbs),
      isOwned: plan.isOwned ?? true,
      ownership: kind === "person" && plan.category === "RESIDENTIAL_MORTGAGES" ? "TWO_PARTY" : "ONE_PARTY",
      openStatus: plan.openStatus ?? "OPEN",
      creationDate,
      specificType:
        plan.category === "CRED_AND_CHRG_CARDS"
          ? "creditCard"
          : isLoan(plan.category)
            ? "loan"
            : plan.category === "TERM_DEPOSITS"
              ? "termDeposit"
              : null,
      balanceCents: 0,
      address: endUser.addresses[0]!,
    };
    if (plan.category === "CRED_AND_CHRG_CARDS") {
      const due = rng.cents(300, 2400);
      account.creditCard = {
        minPaymentCents: Math.round(due * 0.02),
        dueCents: due,
        dueDate: addDays(data.referenceDate, rng.int(3, 25)),
      };
    }
    if (isLoan(plan.category)) {
      const original =
        plan.category === "RESIDENTIAL_MORTGAGES" ? rng.cents(450_000, 900_000) : rng.cents(15_000, 90_000);
      const years = plan.category === "RESIDENTIAL_MORTGAGES" ? 30 : 5;
      const startDate = addDays(creationDate, 14);
      account.loan = {
        endDate: addMonths(startDate, years * 12),
        originalCents: original,
        startDate,
        instalmentCents: Math.round((original / (years * 12)) * 1.45),
        nextInstalmentDate: addDays(data.referenceDate, rng.int(2, 28)),
        frequency: "P1M",
        repaymentType: "PRINCIPAL_AND_INTEREST",
        maxRedrawCents: plan.category === "RESIDENTIAL_MORTGAGES" ? rng.cents(5_000, 40_000) : 0,
        offsetAccountIds: [],
      };
      account.balanceCents = -Math.round(original * 0.8);
    }
    if (plan.category === "TERM_DEPOSITS") {
      const principal = rng.cents(10_000, 60_000);
      const lodgement = addDays(data.referenceDate, -rng.int(30, 300));
      account.termDeposit = {
        lodgementDate: lodgement,
        maturityDate: addMonths(lodgement, 12),
        maturityCents: Math.round(principal * 1.0475),
        instructions: "ROLLED_OVER",
      };
      account.balanceCents = principal;
    }
    accounts.push(account);
  }
  const mortgage = accounts.find((a) => a.category === "RESIDENTIAL_MORTGAGES");
  const everyday = accounts[0]!;
  if (mortgage?.loan) mortgage.loan.offsetAccountIds = [everyday.id];
  data.accounts.push(...accounts);

  const txRng = rng.fork("transactions");
  const payees = makePayees(data, endUser, rng.fork("payees"), ids, kind);
  makeTransactions(data, accounts, payees, txRng, ids, kind);
  makeScheduledPayments(data, endUser, accounts, payees, rng.fork("scheduled"), ids);
  makeDirectDebits(data, endUser, accounts, rng.fork("direct-debits"), ids, kind);
}

function isLoan(category: string): boolean {
  return [
    "RESIDENTIAL_MORTGAGES",
    "PERS_LOANS",
    "BUSINESS_LOANS",
    "LEASES",
    "MARGIN_LOANS",
    "TRADE_FINANCE",
  ].includes(category);
}

const BILLERS: { name: string; code: string }[] = [
  { name: "AGL Energy", code: "1234" },
  { name: "Telstra", code: "23796" },
  { name: "Sydney Water", code: "14324" },
  { name: "Australian Taxation Office", code: "75556" },
  { name: "City of Sydney Rates", code: "39800" },
  { name: "Optus", code: "230334" },
];

function makePayees(
  data: DataSet,
  endUser: EndUser,
  rng: Prng,
  ids: IdMaker,
  kind: "person" | "organisation",
): Payee[] {
  const payees: Payee[] = [];
  const created = () => addDays(data.referenceDate, -rng.int(30, 700));
  const domesticNames =
    kind === "person"
      ? ["Mum and Dad", "Flatmate rent share", "Tennis club", "Emma (babysitting)"]
      : ["Timber Supplies Co", "Hardware Wholesale", "Casual staff pay", "Office landlord"];
  for (const name of domesticNames) {
    const bank = rng.pick(BANKS);
    payees.push({
      id: ids.make("pye"),
      endUserId: endUser.id,
      nickname: name,
      type: "DOMESTIC",
      accountName: name,
      accountNumber: `xxxx${rng.digits(4)}`,
      bsb: rng.pick(bank.bsbs),
      billerCode: null,
      billerName: null,
      crn: null,
      payId: rng.chance(0.3) ? `${rng.digits(2)}@payid.example.com.au` : null,
      international: null,
      createdDate: created(),
    });
  }
  const billers =
    kind === "person" ? BILLERS.slice(0, 4) : [BILLERS[1]!, BILLERS[3]!, BILLERS[4]!, BILLERS[5]!];
  for (const biller of billers) {
    payees.push({
      id: ids.make("pye"),
      endUserId: endUser.id,
      nickname: biller.name,
      type: "BILLER",
      accountName: null,
      accountNumber: null,
      bsb: null,
      billerCode: biller.code,
      billerName: biller.name,
      crn: rng.digits(10),
      payId: null,
      international: null,
      createdDate: created(),
    });
  }
  payees.push({
    id: ids.make("pye"),
    endUserId: endUser.id,
    nickname: kind === "person" ? "Sister in Auckland" : "Supplier NZ Ltd",
    type: "INTERNATIONAL",
    accountName: kind === "person" ? "Sophie Walker" : "Supplier NZ Ltd",
    accountNumber: null,
    bsb: null,
    billerCode: null,
    billerName: null,
    crn: null,
    payId: null,
    international: {
      country: "NZL",
      bic: "ANZBNZ22",
      accountNumber: `01-0102-${rng.digits(7)}-00`,
      bankName: "ANZ Bank New Zealand",
      bankAddress: "23-29 Albert Street, Auckland 1010",
    },
    createdDate: created(),
  });
  data.payees.push(...payees);
  return payees;
}

interface Merchant {
  name: string;
  category: string;
  mcc: string;
  min: number;
  max: number;
}

const PERSONAL_SPEND: { weight: number; merchants: Merchant[] }[] = [
  {
    weight: 5,
    merchants: [
      { name: "Woolworths", category: "GROCERIES", mcc: "5411", min: 18, max: 210 },
      { name: "Coles", category: "GROCERIES", mcc: "5411", min: 15, max: 190 },
      { name: "ALDI", category: "GROCERIES", mcc: "5411", min: 12, max: 120 },
      { name: "Harris Farm Markets", category: "GROCERIES", mcc: "5411", min: 20, max: 95 },
    ],
  },
  {
    weight: 3,
    merchants: [
      { name: "Guzman y Gomez", category: "DINING", mcc: "5814", min: 14, max: 38 },
      { name: "Grill'd", category: "DINING", mcc: "5812", min: 19, max: 55 },
      { name: "Single O Cafe", category: "DINING", mcc: "5814", min: 5, max: 26 },
      { name: "Mr Wong", category: "DINING", mcc: "5812", min: 70, max: 240 },
    ],
  },
  {
    weight: 2,
    merchants: [
      { name: "Transport for NSW Opal", category: "TRANSPORT", mcc: "4111", min: 3, max: 50 },
      { name: "Ampol", category: "TRANSPORT", mcc: "5541", min: 45, max: 110 },
      { name: "BP", category: "TRANSPORT", mcc: "5541", min: 40, max: 105 },
      { name: "Uber", category: "TRANSPORT", mcc: "4121", min: 11, max: 65 },
    ],
  },
  {
    weight: 2,
    merchants: [
      { name: "Kmart", category: "SHOPPING", mcc: "5311", min: 8, max: 150 },
      { name: "JB Hi-Fi", category: "SHOPPING", mcc: "5732", min: 25, max: 900 },
      { name: "Bunnings Warehouse", category: "SHOPPING", mcc: "5200", min: 9, max: 320 },
      { name: "Myer", category: "SHOPPING", mcc: "5311", min: 30, max: 400 },
    ],
  },
  {
    weight: 1,
    merchants: [
      { name: "Hoyts", category: "ENTERTAINMENT", mcc: "7832", min: 18, max: 60 },
      { name: "Ticketek", category: "ENTERTAINMENT", mcc: "7922", min: 60, max: 260 },
    ],
  },
  {
    weight: 1,
    merchants: [
      { name: "Chemist Warehouse", category: "HEALTH", mcc: "5912", min: 7, max: 85 },
      { name: "Priceline Pharmacy", category: "HEALTH", mcc: "5912", min: 6, max: 60 },
    ],
  },
];

const BUSINESS_SPEND: { weight: number; merchants: Merchant[] }[] = [
  {
    weight: 4,
    merchants: [
      { name: "Bunnings Trade", category: "SHOPPING", mcc: "5200", min: 40, max: 1800 },
      { name: "Timber Supplies Co", category: "SHOPPING", mcc: "5211", min: 300, max: 6500 },
      { name: "Total Tools", category: "SHOPPING", mcc: "5251", min: 60, max: 1400 },
    ],
  },
  {
    weight: 2,
    merchants: [
      { name: "Ampol", category: "TRANSPORT", mcc: "5541", min: 70, max: 180 },
      { name: "Linkt Tolls", category: "TRANSPORT", mcc: "4784", min: 20, max: 90 },
    ],
  },
  {
    weight: 1,
    merchants: [
      { name: "Officeworks", category: "SHOPPING", mcc: "5943", min: 15, max: 450 },
      { name: "Xero Australia", category: "UTILITIES", mcc: "7372", min: 70, max: 70 },
    ],
  },
  { weight: 1, merchants: [{ name: "Bakers Delight", category: "DINING", mcc: "5462", min: 8, max: 60 }] },
];

function pickWeighted(rng: Prng, groups: { weight: number; merchants: Merchant[] }[]): Merchant {
  const total = groups.reduce((acc, g) => acc + g.weight, 0);
  let roll = rng.next() * total;
  for (const group of groups) {
    roll -= group.weight;
    if (roll < 0) return rng.pick(group.merchants);
  }
  return rng.pick(groups[0]!.merchants);
}

interface TransactionDraft {
  amountCents: number;
  description: string;
  merchant?: Merchant | null;
  category: string;
  detailType: string;
  billerCode?: string | null;
  npp?: boolean;
}

function makeTransactions(
  data: DataSet,
  accounts: Account[],
  payees: Payee[],
  rng: Prng,
  ids: IdMaker,
  kind: "person" | "organisation",
): void {
  const end = data.referenceDate;
  const startDay = toEpochDay(addDays(end, -729));
  const endDay = toEpochDay(end);
  let sequence = data.transactions.length;
  const byCategory = (category: string) =>
    accounts.find((a) => a.category === category && a.openStatus === "OPEN");
  const everyday = accounts[0]!;
  const card = byCategory("CRED_AND_CHRG_CARDS");
  const savings = accounts.find((a, i) => i > 0 && a.category === "TRANS_AND_SAVINGS_ACCOUNTS");
  const loans = accounts.filter((a) => a.loan && a.openStatus === "OPEN");
  const closedLoan = accounts.find((a) => a.loan && a.openStatus === "CLOSED");
  const employer =
    kind === "person"
      ? rng.pick(["NSW HEALTH", "ATLASSIAN PTY LTD", "UNIVERSITY OF SYDNEY", "BHP GROUP"])
      : "";
  const salary = rng.cents(2600, 3900);
  const customers = [
    "Pymble Ladies College",
    "J & K Renovations",
    "Strata Plan 45211",
    "Hillside Homes Pty Ltd",
    "Private client",
  ];

  let cardOwedCents = 0;
  const push = (account: Account, date: string, draft: TransactionDraft) => {
    if (account === card) cardOwedCents -= draft.amountCents;
    const pendingCutoff = addDays(end, -2);
    const status = date >= pendingCutoff && draft.detailType !== "INTEREST_PAID" ? "PENDING" : "POSTED";
    const execution = draft.merchant ? addDays(date, -rng.int(0, 2)) : date;
    const transaction: Transaction = {
      id: ids.make("txn", 12),
      accountId: account.id,
      endUserId: account.endUserId,
      amountCents: draft.amountCents,
      description: draft.description,
      merchantName: draft.merchant?.name ?? null,
      merchantCategoryCode: draft.merchant?.mcc ?? null,
      category: draft.category,
      status,
      postedDate: date,
      executionDate: execution < date ? execution : date,
      minuteOfDay: rng.int(360, 1380),
      reference: rng.digits(12),
      detailType: draft.detailType,
      billerCode: draft.billerCode ?? null,
      npp: draft.npp
        ? { extendedDescription: draft.description, service: "X2P1", serviceVersion: "1" }
        : null,
      sequence: sequence++,
    };
    data.transactions.push(transaction);
  };

  const salaryOffset = rng.int(0, 13);
  for (let day = startDay; day <= endDay; day++) {
    const date = fromEpochDay(day);
    const dow = weekday(date);
    const dayOfMonth = Number(date.slice(8, 10));
    if (kind === "person") {
      if ((day - startDay - salaryOffset) % 14 === 0 && day - startDay >= salaryOffset) {
        push(everyday, date, {
          amountCents: salary + rng.int(-2000, 2000),
          description: `SALARY ${employer}`,
          category: "INCOME",
          detailType: "TRANSFER_INCOMING",
        });
      }
      const purchases = rng.int(0, dow === 6 || dow === 0 ? 4 : 3);
      for (let i = 0; i < purchases; i++) {
        const merchant = pickWeighted(rng, PERSONAL_SPEND);
        const account = card && rng.chance(0.45) ? card : everyday;
        push(account, date, {
          amountCents: -rng.cents(merchant.min, merchant.max),
          description: `${merchant.name.toUpperCase()} ${rng.pick(LOCALITIES).suburb.toUpperCase()} AU`,
          merchant,
          category: merchant.category,
          detailType: "PAYMENT",
        });
      }
      if (dayOfMonth === 3)
        push(everyday, date, {
          amountCents: -1899,
          description: "NETFLIX.COM",
          merchant: { name: "Netflix", category: "ENTERTAINMENT", mcc: "4899", min: 0, max: 0 },
          category: "ENTERTAINMENT",
          detailType: "DIRECT_DEBIT",
        });
      if (dayOfMonth === 9)
        push(everyday, date, {
          amountCents: -rng.cents(75, 95),
          description: "TELSTRA BPAY",
          category: "UTILITIES",
          detailType: "PAYMENT",
          billerCode: "23796",
        });
      if (dayOfMonth === 14)
        push(everyday, date, {
          amountCents: -rng.cents(168, 171),
          description: "MEDIBANK PRIVATE DIRECT DEBIT",
          category: "HEALTH",
          detailType: "DIRECT_DEBIT",
        });
      if (dayOfMonth === 20 && Number(date.slice(5, 7)) % 3 === 0)
        push(everyday, date, {
          amountCents: -rng.cents(280, 520),
          description: "AGL ENERGY BPAY",
          category: "UTILITIES",
          detailType: "PAYMENT",
          billerCode: "1234",
        });
      if (savings && dayOfMonth === 1) {
        const amount = rng.cents(300, 800);
        push(everyday, date, {
          amountCents: -amount,
          description: `TRANSFER TO ${savings.nickname.toUpperCase()}`,
          category: "TRANSFER",
          detailType: "TRANSFER_OUTGOING",
          npp: true,
        });
        push(savings, date, {
          amountCents: amount,
          description: "TRANSFER FROM EVERYDAY",
          category: "TRANSFER",
          detailType: "TRANSFER_INCOMING",
          npp: true,
        });
      }
      if (savings && dayOfMonth === 28)
        push(savings, date, {
          amountCents: rng.cents(18, 95),
          description: "BONUS INTEREST",
          category: "INCOME",
          detailType: "INTEREST_PAID",
        });
      if (card && dayOfMonth === 22 && cardOwedCents > 0) {
        const repayment = cardOwedCents;
        push(everyday, date, {
          amountCents: -repayment,
          description: "CREDIT CARD REPAYMENT",
          category: "TRANSFER",
          detailType: "TRANSFER_OUTGOING",
        });
        push(card, date, {
          amountCents: repayment,
          description: "PAYMENT RECEIVED THANK YOU",
          category: "TRANSFER",
          detailType: "TRANSFER_INCOMING",
        });
      }
      if (dow === 6 && rng.chance(0.15)) {
        const payee = rng.pick(payees.filter((p) => p.type === "DOMESTIC"));
        push(everyday, date, {
          amountCents: -rng.cents(20, 300),
          description: `OSKO PAYMENT TO ${payee.nickname.toUpperCase()}`,
          category: "TRANSFER",
          detailType: "TRANSFER_OUTGOING",
          npp: true,
        });
      }
      if (dayOfMonth === 15 && rng.chance(0.2))
        push(everyday, date, {
          amountCents: -500,
          description: "INTERNATIONAL TRANSACTION FEE",
          category: "FEES",
          detailType: "FEE",
        });
      if (closedLoan && day < endDay - 200 && dayOfMonth === 5) {
        push(closedLoan, date, {
          amountCents: closedLoan.loan!.instalmentCents,
          description: "LOAN REPAYMENT",
          category: "TRANSFER",
          detailType: "TRANSFER_INCOMING",
        });
      }
    } else {
      if (dow >= 1 && dow <= 5 && rng.chance(0.62)) {
        push(everyday, date, {
          amountCents: rng.cents(450, 7000),
          description: `INVOICE PAYMENT ${rng.pick(customers).toUpperCase()}`,
          category: "INCOME",
          detailType: "TRANSFER_INCOMING",
          npp: rng.chance(0.5),
        });
      }
      if (dow >= 1 && dow <= 5) {
        const purchases = rng.int(0, 2);
        for (let i = 0; i < purchases; i++) {
          const merchant = pickWeighted(rng, BUSINESS_SPEND);
          const account = card && rng.chance(0.4) ? card : everyday;
          push(account, date, {
            amountCents: -rng.cents(merchant.min, merchant.max),
            description: `${merchant.name.toUpperCase()} AU`,
            merchant,
            category: merchant.category,
            detailType: "PAYMENT",
          });
        }
      }
      if (dow === 4 && (day - startDay) % 14 < 7)
        push(everyday, date, {
          amountCents: -rng.cents(6800, 9200),
          description: "PAYROLL WAGES",
          category: "TRANSFER",
          detailType: "TRANSFER_OUTGOING",
        });
      if (dayOfMonth === 28 && ["01", "04", "07", "10"].includes(date.slice(5, 7)))
        push(everyday, date, {
          amountCents: -rng.cents(4000, 14000),
          description: "ATO BAS PAYMENT",
          category: "UTILITIES",
          detailType: "PAYMENT",
          billerCode: "75556",
        });
      if (dayOfMonth === 1)
        push(everyday, date, {
          amountCents: -450000,
          description: "RENT WORKSHOP UNIT 4",
          category: "TRANSFER",
          detailType: "TRANSFER_OUTGOING",
        });
      if (dayOfMonth === 25)
        push(everyday, date, {
          amountCents: -2000,
          description: "ACCOUNT KEEPING FEE",
          category: "FEES",
          detailType: "FEE",
        });
      if (card && dayOfMonth === 20 && cardOwedCents > 0) {
        const repayment = cardOwedCents;
        push(everyday, date, {
          amountCents: -repayment,
          description: "BUSINESS CARD REPAYMENT",
          category: "TRANSFER",
          detailType: "TRANSFER_OUTGOING",
        });
        push(card, date, {
          amountCents: repayment,
          description: "PAYMENT RECEIVED THANK YOU",
          category: "TRANSFER",
          detailType: "TRANSFER_INCOMING",
        });
      }
    }
    for (const loan of loans) {
      if (dayOfMonth === 10) {
        push(loan, date, {
          amountCents: loan.loan!.instalmentCents,
          description: "LOAN REPAYMENT RECEIVED",
          category: "TRANSFER",
          detailType: "TRANSFER_INCOMING",
        });
        push(loan, date, {
          amountCents: -Math.round(loan.loan!.instalmentCents * 0.55),
          description: "INTEREST CHARGED",
          category: "FEES",
          detailType: "INTEREST_CHARGED",
        });
      }
    }
  }
  // Balances follow the transactions of each account.
  for (const account of accounts) {
    const flow = data.transactions
      .filter((t) => t.accountId === account.id)
      .reduce((acc, t) => acc + t.amountCents, 0);
    if (account.loan || account.termDeposit) continue;
    const opening =
      account.category === "CRED_AND_CHRG_CARDS" || account.category === "OVERDRAFTS"
        ? -rng.cents(200, 1500)
        : rng.cents(2000, 15000);
    account.balanceCents = account.openStatus === "CLOSED" ? 0 : opening + flow;
  }
}

function makeScheduledPayments(
  data: DataSet,
  endUser: EndUser,
  accounts: Account[],
  payees: Payee[],
  rng: Prng,
  ids: IdMaker,
): void {
  const frequencies: ScheduledPayment["frequency"][] = [
    "WEEKLY",
    "FORTNIGHTLY",
    "MONTHLY",
    "QUARTERLY",
    "ANNUALLY",
    "ONE_OFF",
  ];
  const source = accounts[0]!;
  payees.slice(0, 6).forEach((payee, index) => {
    const frequency = frequencies[index % frequencies.length]!;
    data.scheduledPayments.push({
      id: ids.make("spm"),
      endUserId: endUser.id,
      accountId: source.id,
      institutionId: source.institutionId,
      arrangementId: source.arrangementId,
      payeeId: payee.id,
      nickname: `${payee.nickname} ${frequency.toLowerCase().replace("_", "-")}`,
      payeeReference: payee.type === "BILLER" ? (payee.crn ?? "") : `From ${endUser.name.split(" ")[0]}`,
      payerReference: `${payee.nickname.slice(0, 12)}`,
      amountCents: rng.cents(25, 1500),
      frequency,
      nextPaymentDate: addDays(data.referenceDate, rng.int(1, 40)),
      finalPaymentDate:
        frequency === "ONE_OFF"
          ? null
          : rng.chance(0.5)
            ? addMonths(data.referenceDate, rng.int(6, 24))
            : null,
      status: "ACTIVE",
    });
  });
}

function makeDirectDebits(
  data: DataSet,
  endUser: EndUser,
  accounts: Account[],
  rng: Prng,
  ids: IdMaker,
  kind: "person" | "organisation",
): void {
  const entities =
    kind === "person"
      ? [
          {
            description: "MEDIBANK PRIVATE LTD",
            financialInstitution: "Commonwealth Bank",
            abn: "47 080 890 259",
          },
          { description: "NETFLIX AUSTRALIA", financialInstitution: "Westpac", abn: "58 152 464 012" },
          {
            description: "ANYTIME FITNESS",
            financialInstitution: "National Australia Bank",
            abn: "33 135 836 045",
          },
          { description: "AUSTRALIANSUPER", financialInstitution: "ANZ", abn: "65 714 394 898" },
        ]
      : [
          { description: "XERO AUSTRALIA PTY LTD", financialInstitution: "Westpac", abn: "98 126 434 541" },
          {
            description: "ALLIANZ AUSTRALIA INSURANCE",
            financialInstitution: "Commonwealth Bank",
            abn: "15 000 122 850",
          },
          { description: "TELSTRA CORPORATION", financialInstitution: "ANZ", abn: "33 051 775 556" },
        ];
  const debitAccounts = accounts.filter(
    (a) =>
      a.openStatus === "OPEN" &&
      (a.category === "TRANS_AND_SAVINGS_ACCOUNTS" || a.category === "CRED_AND_CHRG_CARDS"),
  );
  entities.forEach((entity, index) => {
    const account = debitAccounts[index % debitAccounts.length]!;
    data.directDebits.push({
      id: ids.make("ddr"),
      endUserId: endUser.id,
      accountId: account.id,
      institutionId: account.institutionId,
      arrangementId: account.arrangementId,
      entity: {
        ...entity,
        acn: entity.abn
          .replace(/ /g, "")
          .slice(2)
          .replace(/(\d{3})(\d{3})(\d{3})/, "$1 $2 $3"),
        arbn: "",
      },
      lastDebitCents: rng.cents(15, 400),
      lastDebitAt: timestamp(addDays(data.referenceDate, -rng.int(1, 30)), rng.int(0, 1439)),
    });
  });
}

/** A national meter identifier: a 10-character NMI with its check digit (AEMO algorithm). */
function makeNmi(rng: Prng, prefix: string): { nmi: string; checksum: number } {
  const nmi = `${prefix}${rng.digits(10 - prefix.length)}`;
  let sum = 0;
  let double = true;
  for (let i = nmi.length - 1; i >= 0; i--) {
    let value = nmi.charCodeAt(i);
    if (double) value *= 2;
    double = !double;
    for (const digit of String(value)) sum += Number(digit);
  }
  return { nmi, checksum: (10 - (sum % 10)) % 10 };
}

function buildEnergy(
  data: DataSet,
  endUser: EndUser,
  rng: Prng,
  ids: IdMaker,
  retailerId: string,
  servicePointCount: number,
): void {
  const consent = consentFor(data, rng, ids, endUser, retailerId);
  const plan =
    data.plans.find(
      (p) =>
        p.institutionId === retailerId &&
        p.effectiveTo === null &&
        p.customerType === (endUser.type === "PERSON" ? "RESIDENTIAL" : "BUSINESS"),
    ) ?? data.plans.find((p) => p.institutionId === retailerId)!;
  const energyAccount: EnergyAccount = {
    id: ids.make("ea"),
    endUserId: endUser.id,
    institutionId: retailerId,
    consentId: consent.id,
    arrangementId: consent.arrangementId,
    balanceCents: rng.chance(0.5) ? -rng.cents(40, 480) : rng.chance(0.5) ? rng.cents(5, 120) : 0,
    balanceAsOf: timestamp(addDays(data.referenceDate, -rng.int(0, 3)), rng.int(0, 1439)),
    planId: plan.id,
  };
  data.energyAccounts.push(energyAccount);
  const home = endUser.addresses[0]!;
  for (let i = 0; i < servicePointCount; i++) {
    const localityIndex = LOCALITIES.findIndex((l) => l.suburb === home.suburb);
    const locality = LOCALITIES[i === 0 ? localityIndex : rng.int(0, LOCALITIES.length - 1)]!;
    const address =
      i === 0
        ? home
        : makeAddress(
            rng,
            endUser.type === "PERSON" ? "RESIDENTIAL" : "BUSINESS",
            LOCALITIES.indexOf(locality),
          );
    const { nmi } = makeNmi(rng, locality.nmiPrefix);
    const solar = i === 0 || endUser.type === "ORGANISATION";
    const registers: ServicePoint["registers"] = [
      { registerId: "E1", registerType: "CONSUMPTION", unit: "KWH" },
    ];
    if (solar) registers.push({ registerId: "B1", registerType: "GENERATION", unit: "KWH" });
    if (endUser.type === "ORGANISATION")
      registers.push({ registerId: "D1", registerType: "DEMAND", unit: "KVA" });
    const servicePoint: ServicePoint = {
      id: nmi,
      endUserId: endUser.id,
      accountId: energyAccount.id,
      institutionId: retailerId,
      arrangementId: consent.arrangementId,
      address: { ...address, type: endUser.type === "PERSON" ? "RESIDENTIAL" : "BUSINESS" },
      classification: endUser.type === "ORGANISATION" && i === 0 ? "LARGE" : "SMALL",
      status: i === servicePointCount - 1 && endUser.type === "PERSON" ? "INACTIVE" : "ACTIVE",
      meterType: solar ? "SMART" : i % 2 === 0 ? "INTERVAL" : "BASIC",
      registers,
      distributor: locality.distributor,
    };
    data.servicePoints.push(servicePoint);
    if (solar)
      data.derRecords.push(makeDer(rng, servicePoint, data.referenceDate, endUser.type === "ORGANISATION"));
  }
  const concessions: Concession[] =
    endUser.type === "PERSON"
      ? [
          {
            id: ids.make("con"),
            endUserId: endUser.id,
            accountId: energyAccount.id,
            type: "GOVERNMENT",
            displayName: `${home.state} Low Income Household Rebate`,
            startDate: addDays(data.referenceDate, -400),
            endDate: null,
            percentage: null,
            fixedAmountCents: 28500,
          },
          {
            id: ids.make("con"),
            endUserId: endUser.id,
            accountId: energyAccount.id,
            type: "LOYALTY",
            displayName: "Loyalty discount",
            startDate: addDays(data.referenceDate, -200),
            endDate: addDays(data.referenceDate, 165),
            percentage: 3,
            fixedAmountCents: null,
          },
          {
            id: ids.make("con"),
            endUserId: endUser.id,
            accountId: energyAccount.id,
            type: "HARDSHIP",
            displayName: "Payment plan support",
            startDate: addDays(data.referenceDate, -600),
            endDate: addDays(data.referenceDate, -420),
            percentage: null,
            fixedAmountCents: 5000,
          },
        ]
      : [
          {
            id: ids.make("con"),
            endUserId: endUser.id,
            accountId: energyAccount.id,
            type: "RETAILER",
            displayName: "Small business pay-on-time discount",
            startDate: addDays(data.referenceDate, -300),
            endDate: null,
            percentage: 7.5,
            fixedAmountCents: null,
          },
        ];
  data.concessions.push(...concessions);
}

function makeDer(rng: Prng, servicePoint: ServicePoint, referenceDate: string, business: boolean): DerRecord {
  const capacity = business ? 30 : rng.pick([5, 6.6, 8, 10]);
  const battery = rng.chance(0.5);
  const devices = [
    {
      identifier: 1,
      count: business ? 75 : Math.round(capacity * 2.5),
      manufacturer: rng.pick(["Jinko Solar", "Trina Solar", "REC", "LONGi"]),
      modelNumber: `PV-${rng.int(390, 440)}M`,
      type: "SOLAR_PV",
      subtype: "MONOCRYSTALLINE",
      status: "ACTIVE",
      ratedKw: 0.415,
      storageKwh: 0,
    },
  ];
  if (battery)
    devices.push({
      identifier: 2,
      count: 1,
      manufacturer: "Tesla",
      modelNumber: "Powerwall 2",
      type: "STORAGE",
      subtype: "LITHIUM_ION",
      status: "ACTIVE",
      ratedKw: 5,
      storageKwh: 13.5,
    });
  const inverter = business
    ? { manufacturer: "SMA", series: "Sunny Tripower", model: "STP 25000TL-30" }
    : rng.pick([
        { manufacturer: "Fronius", series: "Primo", model: "Primo 5.0-1" },
        { manufacturer: "SolarEdge", series: "HD-Wave", model: "SE5000H" },
        { manufacturer: "Sungrow", series: "SG-RS", model: "SG5.0RS" },
      ]);
  return {
    servicePointId: servicePoint.id,
    endUserId: servicePoint.endUserId,
    institutionId: servicePoint.institutionId,
    arrangementId: servicePoint.arrangementId,
    approvedCapacityKw: capacity,
    availablePhases: business ? 3 : 1,
    installedPhases: business ? 3 : 1,
    centralProtection: business,
    islandable: battery,
    exportLimitKva: business ? 30 : 5,
    connections: [
      {
        identifier: 1,
        count: 1,
        equipmentType: "INVERTER",
        manufacturer: inverter.manufacturer,
        inverterSeries: inverter.series,
        inverterModel: inverter.model,
        capacityKw: capacity,
        commissioningDate: addDays(referenceDate, -rng.int(200, 1500)),
        status: "ACTIVE",
        devices,
      },
    ],
  };
}

function makePlans(rng: Prng, ids: IdMaker, referenceDate: string): EnergyPlan[] {
  const plans: EnergyPlan[] = [];
  const templates: {
    name: string;
    customer: EnergyPlan["customerType"];
    fuel: EnergyPlan["fuelType"];
    type: EnergyPlan["type"];
  }[] = [
    { name: "Value Saver", customer: "RESIDENTIAL", fuel: "ELECTRICITY", type: "MARKET" },
    { name: "Solar Savers", customer: "RESIDENTIAL", fuel: "ELECTRICITY", type: "MARKET" },
    { name: "Dual Fuel Essentials", customer: "RESIDENTIAL", fuel: "DUAL", type: "MARKET" },
    { name: "Gas Basic", customer: "RESIDENTIAL", fuel: "GAS", type: "MARKET" },
    { name: "Standing Offer", customer: "RESIDENTIAL", fuel: "ELECTRICITY", type: "STANDING" },
    { name: "Business Saver", customer: "BUSINESS", fuel: "ELECTRICITY", type: "MARKET" },
    { name: "Business Flex", customer: "BUSINESS", fuel: "ELECTRICITY", type: "MARKET" },
  ];
  for (const retailer of RETAILERS) {
    templates.forEach((template, index) => {
      const locality = LOCALITIES[(index + retailer.name.length) % LOCALITIES.length]!;
      const retired = index === 3 || (index === 6 && rng.chance(0.5));
      plans.push({
        id: ids.make(`plan_${retailer.brand.replace("-", "")}`, 6),
        institutionId: retailer.id,
        brand: retailer.brand,
        brandName: retailer.name,
        displayName: `${retailer.name} ${template.name}`,
        description: `${template.name} ${template.fuel === "DUAL" ? "electricity and gas" : template.fuel.toLowerCase()} plan for ${template.customer === "BUSINESS" ? "small businesses" : "households"} in ${locality.state}.`,
        customerType: template.customer,
        fuelType: template.fuel,
        type: template.type,
        effectiveFrom: timestamp(addDays(referenceDate, -rng.int(200, 900)), 0),
        effectiveTo: retired ? timestamp(addDays(referenceDate, -rng.int(10, 150)), 0) : null,
        lastUpdated: timestamp(addDays(referenceDate, -rng.int(1, 120)), rng.int(0, 1439)),
        distributors: [locality.distributor],
        includedPostcodes: [locality.postcode, String(Number(locality.postcode) + 1)],
        excludedPostcodes: index % 2 === 0 ? [] : [String(Number(locality.postcode) + 7)],
      });
    });
  }
  return plans;
}
