/**
 * Two years of transactions on one end user's accounts, day by day up to the reference date, then
 * the accounts' balances from them. Every draw happens in a fixed order, so a seed gives one ledger.
 */
import { addDays, fromEpochDay, toEpochDay, weekday } from "../dates.js";
import type { Prng } from "../prng.js";
import type { IdMaker } from "./ids.js";
import { BUSINESS_SPEND, type Merchant, PERSONAL_SPEND } from "./merchants.js";
import type { Account, DataSet, Payee, Transaction } from "./model.js";
import type { Holder } from "./payees.js";
import { LOCALITIES } from "./reference.js";

interface TransactionDraft {
  amountCents: number;
  description: string;
  merchant?: Merchant | null;
  category: string;
  detailType: string;
  billerCode?: string | null;
  npp?: boolean;
}

/** The accounts a day's activity touches, and the payees it pays. */
interface Holdings {
  everyday: Account;
  /** The open credit card, if any. */
  card: Account | undefined;
  /** A second transaction and savings account, if any. */
  savings: Account | undefined;
  openLoans: Account[];
  closedLoan: Account | undefined;
  payees: Payee[];
}

/** One day of the ledger. */
interface Day {
  date: string;
  /** 0 is Sunday. */
  dow: number;
  dayOfMonth: number;
  /** Days since the first day of the ledger. */
  sinceStart: number;
  /** Days until the reference date. */
  untilEnd: number;
}

/** The person's pay: employer, salary and the first pay day (days from the start, fortnightly after). */
interface Pay {
  employer: string;
  salaryCents: number;
  firstPayDay: number;
}

const EMPLOYERS = ["NSW HEALTH", "ATLASSIAN PTY LTD", "UNIVERSITY OF SYDNEY", "BHP GROUP"];
const CUSTOMERS = [
  "Pymble Ladies College",
  "J & K Renovations",
  "Strata Plan 45211",
  "Hillside Homes Pty Ltd",
  "Private client",
];

/** Adds the transactions of `accounts` (their first is the everyday account) and sets their balances. */
export function makeTransactions(
  data: DataSet,
  accounts: Account[],
  payees: Payee[],
  rng: Prng,
  ids: IdMaker,
  kind: Holder,
): void {
  const holdings = holdingsOf(accounts, payees);
  const ledger = new Ledger(data, rng, ids, holdings.card);
  // The organisation draws a pay too (and does not use it), which keeps every seed's data as it was.
  const pay: Pay = {
    employer: kind === "person" ? rng.pick(EMPLOYERS) : "",
    salaryCents: rng.cents(2600, 3900),
    firstPayDay: rng.int(0, 13),
  };
  const startDay = toEpochDay(addDays(data.referenceDate, -729));
  const endDay = toEpochDay(data.referenceDate);
  for (let epochDay = startDay; epochDay <= endDay; epochDay++) {
    const date = fromEpochDay(epochDay);
    const day: Day = {
      date,
      dow: weekday(date),
      dayOfMonth: Number(date.slice(8, 10)),
      sinceStart: epochDay - startDay,
      untilEnd: endDay - epochDay,
    };
    if (kind === "person") {
      personSpending(ledger, rng, holdings, pay, day);
      personBills(ledger, rng, holdings.everyday, day);
      personTransfers(ledger, rng, holdings, day);
    } else {
      organisationDay(ledger, rng, holdings, day);
    }
    if (day.dayOfMonth === 10) for (const loan of holdings.openLoans) loanRepayment(ledger, loan, day.date);
  }
  settleBalances(data, accounts, rng);
}

function holdingsOf(accounts: Account[], payees: Payee[]): Holdings {
  return {
    everyday: accounts[0]!,
    card: accounts.find((a) => a.category === "CRED_AND_CHRG_CARDS" && a.openStatus === "OPEN"),
    savings: accounts.find((a, i) => i > 0 && a.category === "TRANS_AND_SAVINGS_ACCOUNTS"),
    openLoans: accounts.filter((a) => a.loan && a.openStatus === "OPEN"),
    closedLoan: accounts.find((a) => a.loan && a.openStatus === "CLOSED"),
    payees,
  };
}

/** Records transactions in the order they are made, and follows what the credit card owes. */
class Ledger {
  cardOwedCents = 0;
  private sequence: number;
  private readonly pendingFrom: string;

  constructor(
    private readonly data: DataSet,
    private readonly rng: Prng,
    private readonly ids: IdMaker,
    private readonly card: Account | undefined,
  ) {
    this.sequence = data.transactions.length;
    this.pendingFrom = addDays(data.referenceDate, -2);
  }

  push(account: Account, date: string, draft: TransactionDraft): void {
    const { rng } = this;
    if (account === this.card) this.cardOwedCents -= draft.amountCents;
    const status = date >= this.pendingFrom && draft.detailType !== "INTEREST_PAID" ? "PENDING" : "POSTED";
    const execution = draft.merchant ? addDays(date, -rng.int(0, 2)) : date;
    const transaction: Transaction = {
      id: this.ids.make("txn", 12),
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
      sequence: this.sequence++,
    };
    this.data.transactions.push(transaction);
  }

  /** Pays what the card owes from `from`, if it owes anything. */
  repayCard(from: Account, date: string, description: string): void {
    if (!this.card || this.cardOwedCents <= 0) return;
    const repayment = this.cardOwedCents;
    this.push(from, date, {
      amountCents: -repayment,
      description,
      category: "TRANSFER",
      detailType: "TRANSFER_OUTGOING",
    });
    this.push(this.card, date, {
      amountCents: repayment,
      description: "PAYMENT RECEIVED THANK YOU",
      category: "TRANSFER",
      detailType: "TRANSFER_INCOMING",
    });
  }
}

/** The person's fortnightly salary and the day's card and debit card purchases. */
function personSpending(ledger: Ledger, rng: Prng, holdings: Holdings, pay: Pay, day: Day): void {
  const { everyday, card } = holdings;
  if ((day.sinceStart - pay.firstPayDay) % 14 === 0 && day.sinceStart >= pay.firstPayDay) {
    ledger.push(everyday, day.date, {
      amountCents: pay.salaryCents + rng.int(-2000, 2000),
      description: `SALARY ${pay.employer}`,
      category: "INCOME",
      detailType: "TRANSFER_INCOMING",
    });
  }
  const purchases = rng.int(0, day.dow === 6 || day.dow === 0 ? 4 : 3);
  for (let i = 0; i < purchases; i++) {
    const merchant = pickWeighted(rng, PERSONAL_SPEND);
    const account = card && rng.chance(0.45) ? card : everyday;
    ledger.push(account, day.date, {
      amountCents: -rng.cents(merchant.min, merchant.max),
      description: `${merchant.name.toUpperCase()} ${rng.pick(LOCALITIES).suburb.toUpperCase()} AU`,
      merchant,
      category: merchant.category,
      detailType: "PAYMENT",
    });
  }
}

/** The person's monthly and quarterly bills, paid from the everyday account. */
function personBills(ledger: Ledger, rng: Prng, everyday: Account, { date, dayOfMonth }: Day): void {
  if (dayOfMonth === 3)
    ledger.push(everyday, date, {
      amountCents: -1899,
      description: "NETFLIX.COM",
      merchant: { name: "Netflix", category: "ENTERTAINMENT", mcc: "4899", min: 0, max: 0 },
      category: "ENTERTAINMENT",
      detailType: "DIRECT_DEBIT",
    });
  if (dayOfMonth === 9)
    ledger.push(everyday, date, {
      amountCents: -rng.cents(75, 95),
      description: "TELSTRA BPAY",
      category: "UTILITIES",
      detailType: "PAYMENT",
      billerCode: "23796",
    });
  if (dayOfMonth === 14)
    ledger.push(everyday, date, {
      amountCents: -rng.cents(168, 171),
      description: "MEDIBANK PRIVATE DIRECT DEBIT",
      category: "HEALTH",
      detailType: "DIRECT_DEBIT",
    });
  if (dayOfMonth === 20 && Number(date.slice(5, 7)) % 3 === 0)
    ledger.push(everyday, date, {
      amountCents: -rng.cents(280, 520),
      description: "AGL ENERGY BPAY",
      category: "UTILITIES",
      detailType: "PAYMENT",
      billerCode: "1234",
    });
}

/** The person's savings, card repayment, Osko payments, fees and the closed loan's last year. */
function personTransfers(ledger: Ledger, rng: Prng, holdings: Holdings, day: Day): void {
  const { everyday, savings, closedLoan } = holdings;
  const { date, dayOfMonth } = day;
  if (savings && dayOfMonth === 1) {
    const amount = rng.cents(300, 800);
    ledger.push(everyday, date, {
      amountCents: -amount,
      description: `TRANSFER TO ${savings.nickname.toUpperCase()}`,
      category: "TRANSFER",
      detailType: "TRANSFER_OUTGOING",
      npp: true,
    });
    ledger.push(savings, date, {
      amountCents: amount,
      description: "TRANSFER FROM EVERYDAY",
      category: "TRANSFER",
      detailType: "TRANSFER_INCOMING",
      npp: true,
    });
  }
  if (savings && dayOfMonth === 28)
    ledger.push(savings, date, {
      amountCents: rng.cents(18, 95),
      description: "BONUS INTEREST",
      category: "INCOME",
      detailType: "INTEREST_PAID",
    });
  if (dayOfMonth === 22) ledger.repayCard(everyday, date, "CREDIT CARD REPAYMENT");
  if (day.dow === 6 && rng.chance(0.15)) {
    const payee = rng.pick(holdings.payees.filter((p) => p.type === "DOMESTIC"));
    ledger.push(everyday, date, {
      amountCents: -rng.cents(20, 300),
      description: `OSKO PAYMENT TO ${payee.nickname.toUpperCase()}`,
      category: "TRANSFER",
      detailType: "TRANSFER_OUTGOING",
      npp: true,
    });
  }
  if (dayOfMonth === 15 && rng.chance(0.2))
    ledger.push(everyday, date, {
      amountCents: -500,
      description: "INTERNATIONAL TRANSACTION FEE",
      category: "FEES",
      detailType: "FEE",
    });
  if (closedLoan && day.untilEnd > 200 && dayOfMonth === 5)
    ledger.push(closedLoan, date, {
      amountCents: closedLoan.loan!.instalmentCents,
      description: "LOAN REPAYMENT",
      category: "TRANSFER",
      detailType: "TRANSFER_INCOMING",
    });
}

/** The organisation's working days: invoices paid, purchases, wages, BAS, rent, fees and the card. */
function organisationDay(ledger: Ledger, rng: Prng, holdings: Holdings, day: Day): void {
  const { everyday, card } = holdings;
  const { date, dow, dayOfMonth } = day;
  const workday = dow >= 1 && dow <= 5;
  if (workday && rng.chance(0.62))
    ledger.push(everyday, date, {
      amountCents: rng.cents(450, 7000),
      description: `INVOICE PAYMENT ${rng.pick(CUSTOMERS).toUpperCase()}`,
      category: "INCOME",
      detailType: "TRANSFER_INCOMING",
      npp: rng.chance(0.5),
    });
  const purchases = workday ? rng.int(0, 2) : 0;
  for (let i = 0; i < purchases; i++) {
    const merchant = pickWeighted(rng, BUSINESS_SPEND);
    const account = card && rng.chance(0.4) ? card : everyday;
    ledger.push(account, date, {
      amountCents: -rng.cents(merchant.min, merchant.max),
      description: `${merchant.name.toUpperCase()} AU`,
      merchant,
      category: merchant.category,
      detailType: "PAYMENT",
    });
  }
  if (dow === 4 && day.sinceStart % 14 < 7)
    ledger.push(everyday, date, {
      amountCents: -rng.cents(6800, 9200),
      description: "PAYROLL WAGES",
      category: "TRANSFER",
      detailType: "TRANSFER_OUTGOING",
    });
  if (dayOfMonth === 28 && ["01", "04", "07", "10"].includes(date.slice(5, 7)))
    ledger.push(everyday, date, {
      amountCents: -rng.cents(4000, 14000),
      description: "ATO BAS PAYMENT",
      category: "UTILITIES",
      detailType: "PAYMENT",
      billerCode: "75556",
    });
  if (dayOfMonth === 1)
    ledger.push(everyday, date, {
      amountCents: -450000,
      description: "RENT WORKSHOP UNIT 4",
      category: "TRANSFER",
      detailType: "TRANSFER_OUTGOING",
    });
  if (dayOfMonth === 25)
    ledger.push(everyday, date, {
      amountCents: -2000,
      description: "ACCOUNT KEEPING FEE",
      category: "FEES",
      detailType: "FEE",
    });
  if (dayOfMonth === 20) ledger.repayCard(everyday, date, "BUSINESS CARD REPAYMENT");
}

/** A loan's monthly repayment and the interest charged on it. */
function loanRepayment(ledger: Ledger, loan: Account, date: string): void {
  ledger.push(loan, date, {
    amountCents: loan.loan!.instalmentCents,
    description: "LOAN REPAYMENT RECEIVED",
    category: "TRANSFER",
    detailType: "TRANSFER_INCOMING",
  });
  ledger.push(loan, date, {
    amountCents: -Math.round(loan.loan!.instalmentCents * 0.55),
    description: "INTEREST CHARGED",
    category: "FEES",
    detailType: "INTEREST_CHARGED",
  });
}

/** Balances follow the transactions of each account (loans and term deposits keep theirs). */
function settleBalances(data: DataSet, accounts: Account[], rng: Prng): void {
  for (const account of accounts) {
    if (account.loan || account.termDeposit) continue;
    const flow = data.transactions
      .filter((t) => t.accountId === account.id)
      .reduce((acc, t) => acc + t.amountCents, 0);
    const opening =
      account.category === "CRED_AND_CHRG_CARDS" || account.category === "OVERDRAFTS"
        ? -rng.cents(200, 1500)
        : rng.cents(2000, 15000);
    account.balanceCents = account.openStatus === "CLOSED" ? 0 : opening + flow;
  }
}

function pickWeighted(rng: Prng, groups: { weight: number; merchants: Merchant[] }[]): Merchant {
  const total = groups.reduce((acc, g) => acc + g.weight, 0);
  let roll = rng.next() * total;
  for (const group of groups) {
    roll -= group.weight;
    if (roll < 0) return rng.pick(group.merchants);
  }
  return rng.pick(groups[0]!.merchants);
}
