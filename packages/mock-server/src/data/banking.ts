/** The banking holdings of an end user with data: accounts, then their payees, payments and transactions. */
import { addDays, addMonths } from "../dates.js";
import type { Prng } from "../prng.js";
import { consentFor } from "./consents.js";
import type { IdMaker } from "./ids.js";
import type { Account, DataSet, EndUser } from "./model.js";
import { type Holder, makeDirectDebits, makePayees, makeScheduledPayments } from "./payees.js";
import { makeTransactions } from "./transactions.js";

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
  { productKey: "transaction", category: "TRANS_AND_SAVINGS_ACCOUNTS", bankIndex: 0, nickname: "Everyday" },
  { productKey: "svr_home_loan", category: "RESIDENTIAL_MORTGAGES", bankIndex: 0, nickname: "Home Loan" },
  { productKey: "card", category: "CRED_AND_CHRG_CARDS", bankIndex: 1, nickname: "Credit Card" },
  {
    productKey: "savings",
    category: "TRANS_AND_SAVINGS_ACCOUNTS",
    bankIndex: 2,
    nickname: "Rainy Day Savings",
  },
  { productKey: "term", category: "TERM_DEPOSITS", bankIndex: 3, nickname: "12 Month Term Deposit" },
  {
    productKey: "personal",
    category: "PERS_LOANS",
    bankIndex: 4,
    nickname: "Car Loan",
    openStatus: "CLOSED",
  },
  {
    productKey: "margin",
    category: "MARGIN_LOANS",
    bankIndex: 2,
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

/** Opens the accounts of `plans` at `banks` (indexed by each plan's `bankIndex`), then their activity. */
export function buildBanking(
  data: DataSet,
  endUser: EndUser,
  rng: Prng,
  ids: IdMaker,
  banks: string[],
  kind: Holder,
): void {
  const plans = kind === "person" ? PERSON_ACCOUNTS : ORGANISATION_ACCOUNTS;
  const accounts = plans.map((plan) =>
    makeAccount(data, endUser, rng, ids, banks[plan.bankIndex]!, plan, kind),
  );
  const mortgage = accounts.find((a) => a.category === "RESIDENTIAL_MORTGAGES");
  const everyday = accounts[0]!;
  if (mortgage?.loan) mortgage.loan.offsetAccountIds = [everyday.id];
  data.accounts.push(...accounts);

  const txRng = rng.fork("transactions");
  // Payees and scheduled payments are named after the bank of the everyday account (`pye_cba_…`).
  const bank = data.institutions.find((i) => i.id === everyday.institutionId)!.brand;
  const payees = makePayees(data, endUser, rng.fork("payees"), ids, kind, bank);
  makeTransactions(data, accounts, payees, txRng, ids, kind);
  makeScheduledPayments(data, endUser, accounts, payees, rng.fork("scheduled"), ids, bank);
  makeDirectDebits(data, endUser, accounts, rng.fork("direct-debits"), ids, kind);
}

function makeAccount(
  data: DataSet,
  endUser: EndUser,
  rng: Prng,
  ids: IdMaker,
  institutionId: string,
  plan: AccountPlan,
  kind: Holder,
): Account {
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
    specificType: specificType(plan.category),
    balanceCents: 0,
    address: endUser.addresses[0]!,
  };
  if (plan.category === "CRED_AND_CHRG_CARDS") addCreditCard(account, rng, data.referenceDate);
  if (isLoan(plan.category)) addLoan(account, rng, data.referenceDate);
  if (plan.category === "TERM_DEPOSITS") addTermDeposit(account, rng, data.referenceDate);
  return account;
}

function specificType(category: string): Account["specificType"] {
  if (category === "CRED_AND_CHRG_CARDS") return "creditCard";
  if (isLoan(category)) return "loan";
  if (category === "TERM_DEPOSITS") return "termDeposit";
  return null;
}

function addCreditCard(account: Account, rng: Prng, referenceDate: string): void {
  const due = rng.cents(300, 2400);
  account.creditCard = {
    minPaymentCents: Math.round(due * 0.02),
    dueCents: due,
    dueDate: addDays(referenceDate, rng.int(3, 25)),
  };
}

function addLoan(account: Account, rng: Prng, referenceDate: string): void {
  const mortgage = account.category === "RESIDENTIAL_MORTGAGES";
  const original = mortgage ? rng.cents(450_000, 900_000) : rng.cents(15_000, 90_000);
  const years = mortgage ? 30 : 5;
  const startDate = addDays(account.creationDate, 14);
  // An open loan with an instalment to come ends after the reference date: an older one was renewed
  // for another term (dates compare as YYYY-MM-DD strings).
  let endDate = addMonths(startDate, years * 12);
  while (endDate <= referenceDate) endDate = addMonths(endDate, years * 12);
  account.loan = {
    endDate,
    originalCents: original,
    startDate,
    instalmentCents: Math.round((original / (years * 12)) * 1.45),
    nextInstalmentDate: addDays(referenceDate, rng.int(2, 28)),
    frequency: "P1M",
    repaymentType: "PRINCIPAL_AND_INTEREST",
    maxRedrawCents: mortgage ? rng.cents(5_000, 40_000) : 0,
    offsetAccountIds: [],
  };
  account.balanceCents = -Math.round(original * 0.8);
}

function addTermDeposit(account: Account, rng: Prng, referenceDate: string): void {
  const principal = rng.cents(10_000, 60_000);
  const lodgement = addDays(referenceDate, -rng.int(30, 300));
  account.termDeposit = {
    lodgementDate: lodgement,
    maturityDate: addMonths(lodgement, 12),
    maturityCents: Math.round(principal * 1.0475),
    instructions: "ROLLED_OVER",
  };
  account.balanceCents = principal;
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
