/**
 * The records the documents' examples show, with the values they show there: a request copied from
 * the reference returns what the reference shows (test/served-examples.test.ts). The records are
 * made by the generator like every other (ids.ts gives them their ids); these functions then set the
 * fields the examples show, by id, without drawing from the seed, so every other record stays as the
 * seed makes it. Dates are written for the default reference date (2026-06-30) and move with it.
 */
import { addDays, toEpochDay } from "../dates.js";
import { DOCUMENTED_IDS, DOCUMENTED_TRANSACTIONS } from "./ids.js";
import type { Address, DataSet, EndUser, Payee, ScheduledPayment, Transaction } from "./model.js";

/** The reference date the examples' dates are written for. */
const DOCUMENTED_REFERENCE = "2026-06-30";

/** A documented date, moved by as many days as the reference date is from the documented one. */
function anchored(date: string, referenceDate: string): string {
  return addDays(date, toEpochDay(referenceDate) - toEpochDay(DOCUMENTED_REFERENCE));
}

/** A documented timestamp (`YYYY-MM-DDThh:mm:ss±zone`), its date moved as `anchored` does. */
function anchoredTime(value: string, referenceDate: string): string {
  return `${anchored(value.slice(0, 10), referenceDate)}${value.slice(10)}`;
}

function street(
  number: number,
  name: string,
  type: string,
): Pick<Address, "streetNumber" | "streetName" | "streetType"> {
  return { streetNumber: number, streetName: name, streetType: type };
}

const CARLTON = { suburb: "Carlton", state: "VIC", postcode: "3053", country: "AUS" } as const;

/** The person and the organisation's contact, as the end-user and identity examples show them. */
export function documentEndUsers(endUsers: EndUser[]): void {
  const [person, organisation] = endUsers as [EndUser, EndUser];
  Object.assign(person, {
    name: "Olivia Nguyen",
    firstName: "Olivia",
    middleNames: ["Grace"],
    lastName: "Nguyen",
    email: "olivia.nguyen@example.com.au",
    phone: "+61 412 345 678",
    phoneType: "MOBILE",
    otherPhones: [{ type: "HOME", number: "+61 3 9347 2210" }],
    dateOfBirth: "1988-05-17",
    addresses: [
      { type: "RESIDENTIAL", ...street(14, "Rathdowne", "STREET"), ...CARLTON },
      { type: "MAILING", line: "PO Box 1182", ...street(1182, "PO Box", "BOX"), ...CARLTON },
    ],
    business: {
      consentId: DOCUMENTED_IDS.cns![0]!,
      organisationName: "Nguyen Design Studio Pty Ltd",
      abn: "51 824 753 556",
      addresses: [
        {
          type: "REGISTERED",
          line: "Level 3, 120 Collins Street",
          ...street(120, "Collins", "STREET"),
          suburb: "Melbourne",
          state: "VIC",
          postcode: "3000",
          country: "AUS",
        },
        {
          type: "BUSINESS",
          ...street(88, "Smith", "STREET"),
          suburb: "Fitzroy",
          state: "VIC",
          postcode: "3065",
          country: "AUS",
        },
      ],
      email: "accounts@nguyendesign.example.com.au",
      phones: [{ type: "BUSINESS", number: "+61 3 9419 5520" }],
    },
  } satisfies Partial<EndUser>);
  // The organisation's end user is the person who signed it up; the organisation keeps its own name.
  Object.assign(organisation, {
    name: "Liam O'Brien",
    email: "liam.obrien@example.com.au",
    phone: "+61 438 902 117",
  });
}

function byId<T extends { id: string }>(records: T[], id: string): T {
  const record = records.find((r) => r.id === id);
  if (!record) throw new Error(`documented record ${id} was not made`);
  return record;
}

/**
 * The person's payees the examples show (a domestic, a biller and an international one), and the
 * three the documented scheduled payments pay: the person's second and third domestic payees and
 * second biller become the landlord, the family member abroad and the water retailer.
 */
function documentPayees(data: DataSet, person: EndUser): Payee[] {
  const payees = data.payees.filter((p) => p.endUserId === person.id);
  Object.assign(byId(payees, "pye_cba_0051"), {
    nickname: "Mum (Westpac)",
    accountName: "Mum",
    accountNumber: "xxxx 4417",
    bsb: "032-000",
    payId: null,
    createdDate: anchored("2023-02-11", data.referenceDate),
  });
  Object.assign(byId(payees, "pye_cba_0063"), {
    nickname: "AGL electricity",
    billerCode: "23796",
    billerName: "AGL Energy",
    createdDate: anchored("2024-06-03", data.referenceDate),
  });
  Object.assign(byId(payees, "pye_cba_0078"), {
    nickname: "Aunt Linh (Vietcombank)",
    accountName: "Linh Tran",
    international: {
      country: "VNM",
      bic: "BFTVVNVX",
      accountNumber: "xxxxxx8831",
      bankName: "Vietcombank",
      bankAddress: "198 Tran Quang Khai, Hoan Kiem, Hanoi",
    },
    createdDate: anchored("2025-09-22", data.referenceDate),
  });
  const landlord = Object.assign(payees[1]!, {
    nickname: "Fitzroy Property Group",
    accountName: "Fitzroy Property Group Trust Account",
    bsb: "032-000",
    accountNumber: "418832",
    payId: null,
  });
  const family = Object.assign(payees[2]!, {
    nickname: "Minh Nguyen",
    type: "INTERNATIONAL",
    accountName: "Minh Nguyen",
    accountNumber: null,
    bsb: null,
    payId: null,
    international: {
      country: "VNM",
      bic: "BFTVVNVX",
      accountNumber: "0071000123456",
      bankName: "Vietcombank",
      bankAddress: "198 Tran Quang Khai, Hoan Kiem, Hanoi",
    },
  } satisfies Partial<Payee>);
  const water = Object.assign(payees[5]!, {
    nickname: "Yarra Valley Water",
    billerCode: "12345",
    billerName: "Yarra Valley Water",
    crn: "4418203917",
  });
  return [landlord, water, family];
}

/** The person's first three scheduled payments: the rent, the water bill and the family support. */
function documentScheduledPayments(data: DataSet, [landlord, water, family]: Payee[]): void {
  const ref = data.referenceDate;
  const payment = (id: string, fields: Partial<ScheduledPayment>) =>
    Object.assign(byId(data.scheduledPayments, id), fields);
  payment("sp_cba_0193", {
    payeeId: landlord!.id,
    nickname: "Rent",
    payerReference: "Rent unit 4",
    payeeReference: "Unit 4 21 Smith St",
    amountCents: 215_000,
    frequency: "MONTHLY",
    nextPaymentDate: anchored("2026-07-01", ref),
    finalPaymentDate: anchored("2027-01-01", ref),
    paymentsRemaining: 7,
    dayInInterval: "P1D",
    nonBusinessDayTreatment: "AFTER",
  });
  payment("sp_cba_0207", {
    payeeId: water!.id,
    nickname: "Water bill",
    payerReference: "Water Q4",
    payeeReference: "4418203917",
    amountCents: 9_712,
    frequency: "ONE_OFF",
    nextPaymentDate: anchored("2026-07-15", ref),
    finalPaymentDate: null,
  });
  payment("sp_cba_0214", {
    payeeId: family!.id,
    nickname: "Support for family",
    payerReference: "Family support",
    payeeReference: "Monthly support",
    amountCents: 50_000,
    frequency: "MONTHLY",
    nextPaymentDate: anchored("2026-07-31", ref),
    finalPaymentDate: anchored("2027-06-25", ref),
    paymentsRemaining: 12,
    lastWeekDay: 5,
    nonBusinessDayTreatment: "BEFORE",
  });
}

/** The person's first three direct debits: two on the ANZ loan, one on the NAB term deposit. */
function documentDirectDebits(data: DataSet, person: EndUser): void {
  const ref = data.referenceDate;
  const debits = data.directDebits.filter((d) => d.endUserId === person.id);
  const documented = [
    {
      accountId: "acc_anz_2284",
      entity: {
        description: "FITZROY FITNESS PTY LTD",
        financialInstitution: "Commonwealth Bank of Australia",
        abn: "79 137 945 183",
        acn: "137945183",
        arbn: "",
      },
      lastDebitCents: 6_490,
      lastDebitAt: anchoredTime("2026-06-03T09:12:44+10:00", ref),
    },
    {
      accountId: "acc_anz_2284",
      entity: {
        description: "HARBOUR CITY INSURANCE LTD",
        financialInstitution: "Westpac Banking Corporation",
        abn: "87 192 327 523",
        acn: "",
        arbn: "",
      },
      lastDebitCents: 14_835,
      lastDebitAt: anchoredTime("2026-05-28T02:00:00Z", ref),
    },
    {
      accountId: "acc_nab_5528",
      entity: {
        description: "YARRA VALLEY WATER",
        financialInstitution: "National Australia Bank",
        abn: "28 322 761 077",
        acn: "",
        arbn: "",
      },
      lastDebitCents: 9_712,
      lastDebitAt: anchoredTime("2026-06-15T05:30:00Z", ref),
    },
  ];
  documented.forEach((fields, index) => {
    const account = byId(data.accounts, fields.accountId);
    Object.assign(debits[index]!, fields, {
      institutionId: account.institutionId,
      arrangementId: account.arrangementId,
    });
  });
}

/**
 * The four newest transactions of the person's everyday account, as the transactions example shows
 * them (called after they are named, before income is derived from them).
 */
export function documentTransactions(transactions: Transaction[]): void {
  const values: Partial<Transaction>[] = [
    {
      amountCents: -8_435,
      description: "WOOLWORTHS 3021 CARLTON VIC",
      merchantName: "Woolworths",
      category: "GROCERIES",
      status: "PENDING",
      reference: "746201938",
    },
    {
      amountCents: 341_250,
      description: "SALARY HARBOURSIDE LOGISTICS PTY LTD",
      merchantName: null,
      category: "INCOME",
      status: "POSTED",
      reference: "746118204",
    },
    {
      amountCents: -21_260,
      description: "BPAY AGL ENERGY 23796",
      merchantName: "AGL",
      category: "UTILITIES",
      status: "POSTED",
      reference: "745990377",
    },
    {
      amountCents: -50_000,
      description: "TRANSFER TO WESTPAC 032-000 SAVINGS",
      merchantName: null,
      category: "TRANSFER",
      status: "POSTED",
      reference: "745902115",
    },
  ];
  DOCUMENTED_TRANSACTIONS.ids.forEach((id, index) => {
    // Their posting and execution dates stay the generated ones: they are the account's newest.
    Object.assign(byId(transactions, id), values[index], {
      npp: null,
      billerCode: null,
      merchantCategoryCode: null,
    });
  });
}

/** The person's energy: the two documented service points, the concessions and the balances. */
function documentEnergy(data: DataSet): void {
  const ref = data.referenceDate;
  const home = byId(data.servicePoints, "6305123456");
  Object.assign(home, { classification: "SMALL", status: "ACTIVE", meterType: "SMART" });
  Object.assign(byId(data.servicePoints, "4103987654"), {
    address: {
      type: "RESIDENTIAL",
      ...street(27, "Darling", "STREET"),
      suburb: "Balmain",
      state: "NSW",
      postcode: "2041",
      country: "AUS",
    },
    classification: "SMALL",
    status: "ACTIVE",
    meterType: "INTERVAL",
    registers: [
      { registerId: "E1", registerType: "CONSUMPTION", unit: "KWH" },
      { registerId: "D1", registerType: "DEMAND", unit: "KW" },
    ],
  });
  Object.assign(byId(data.concessions, "con_agl_0417"), {
    type: "GOVERNMENT",
    displayName: "Victorian Annual Electricity Concession",
    startDate: anchored("2026-01-01", ref),
    endDate: null,
    percentage: 17.5,
    fixedAmountCents: null,
  });
  Object.assign(byId(data.concessions, "con_origin_0288"), {
    type: "GOVERNMENT",
    displayName: "NSW Low Income Household Rebate",
    startDate: anchored("2026-07-01", ref),
    endDate: anchored("2027-06-30", ref),
    percentage: null,
    fixedAmountCents: 28_500,
  });
  Object.assign(byId(data.concessions, "con_origin_0291"), {
    type: "LOYALTY",
    displayName: "Origin loyalty discount",
    startDate: anchored("2024-03-15", ref),
    endDate: null,
    percentage: 3,
    fixedAmountCents: null,
  });
  const balances: [string, number, string][] = [
    ["acc_agl_5520", -14_235, "2026-06-29T07:00:00Z"],
    ["acc_origin_3318", 8_710, "2026-06-29T07:00:00Z"],
    ["acc_energyaustralia_7064", 0, "2026-06-28T22:30:00Z"],
  ];
  for (const [id, cents, asOf] of balances)
    Object.assign(byId(data.energyAccounts, id), {
      balanceCents: cents,
      balanceAsOf: anchoredTime(asOf, ref),
    });
}

/** Gives the documented banking and energy records of the person their example values. */
export function documentHoldings(data: DataSet): void {
  const person = data.endUsers[0]!;
  documentScheduledPayments(data, documentPayees(data, person));
  documentDirectDebits(data, person);
  documentEnergy(data);
}
