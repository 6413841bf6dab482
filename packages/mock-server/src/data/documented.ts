/**
 * The records the documents' examples show, with the values they show there: a request copied from
 * the reference returns what the reference shows (test/served-examples.test.ts). The records are
 * made by the generator like every other (ids.ts gives them their ids); these functions then set the
 * fields the examples show, by id, without drawing from the seed, so every other record stays as the
 * seed makes it. Dates are written for the default reference date (2026-06-30) and move with it.
 */
import { addDays, toEpochDay } from "../dates.js";
import { POWERWALL } from "./energy.js";
import { DOCUMENTED_IDS, DOCUMENTED_TRANSACTIONS } from "./ids.js";
import type {
  Account,
  Address,
  BankingProduct,
  DataSet,
  DerRecord,
  EndUser,
  EnergyPlan,
  Feature,
  Institution,
  Payee,
  ScheduledPayment,
  Transaction,
} from "./model.js";
import { fee, rateOf } from "./product-templates.js";

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

/** The instant-payments feature of the everyday account and the savings product the examples show. */
const OSKO: Feature = {
  featureType: "INSTANT_PAYMENTS",
  info: "Osko payments to and from the account",
  value: "",
  activated: true,
};

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

/** The record with this id; a record the documents or the variety name is always made (else a bug). */
export function byId<T extends { id: string }>(records: T[], id: string): T {
  const record = records.find((r) => r.id === id);
  if (!record) throw new Error(`record ${id} was not made`);
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
      { registerId: "B1", registerType: "GENERATION", unit: "KWH" },
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

/**
 * The DER records of the two documented service points: rooftop solar with a Powerwall on its own
 * inverter at the AGL home, three-phase solar at the Origin Energy service point (which has a
 * generation register for it).
 */
function documentDer(data: DataSet): void {
  const ref = data.referenceDate;
  const record = (id: string) => {
    const found = data.derRecords.find((d) => d.servicePointId === id);
    if (!found) throw new Error(`documented DER record of ${id} was not made`);
    return found;
  };
  const panel = {
    identifier: 1,
    type: "SOLAR_PV",
    subtype: "MONOCRYSTALLINE",
    status: "ACTIVE",
    storageKwh: 0,
  };
  const inverter = { count: 1, equipmentType: "INVERTER", status: "ACTIVE" };
  Object.assign(record("6305123456"), {
    approvedCapacityKw: 10,
    availablePhases: 1,
    installedPhases: 1,
    centralProtection: false,
    islandable: true,
    exportLimitKva: 5,
    connections: [
      {
        ...inverter,
        identifier: 1,
        manufacturer: "Fronius",
        inverterSeries: "Primo GEN24 Plus",
        inverterModel: "Primo GEN24 5.0 Plus",
        capacityKw: 5,
        commissioningDate: anchored("2023-02-17", ref),
        devices: [
          { ...panel, count: 16, manufacturer: "Jinko Solar", modelNumber: "JKM415N-54HL4-V", ratedKw: 6.64 },
        ],
      },
      {
        ...inverter,
        identifier: 2,
        manufacturer: "Tesla",
        inverterSeries: "Powerwall 2",
        inverterModel: "1092170-03-K",
        capacityKw: 5,
        commissioningDate: anchored("2023-02-17", ref),
        devices: [{ ...POWERWALL, identifier: 1 }],
      },
    ],
  } satisfies Partial<DerRecord>);
  Object.assign(record("4103987654"), {
    approvedCapacityKw: 30,
    availablePhases: 3,
    installedPhases: 3,
    centralProtection: false,
    islandable: false,
    exportLimitKva: 15,
    connections: [
      {
        ...inverter,
        identifier: 1,
        manufacturer: "SMA",
        inverterSeries: "Sunny Tripower",
        inverterModel: "STP15.0-3AV-40",
        capacityKw: 15,
        commissioningDate: anchored("2021-11-08", ref),
        devices: [
          { ...panel, count: 40, manufacturer: "Trina Solar", modelNumber: "TSM-DE09R.08", ratedKw: 16.8 },
        ],
      },
    ],
  } satisfies Partial<DerRecord>);
}

/**
 * The person's two Commonwealth Bank accounts as the accounts example (summary family) shows them:
 * the everyday Smart Access account and the home loan.
 */
function documentAccounts(data: DataSet): void {
  const ref = data.referenceDate;
  Object.assign(byId(data.accounts, "acc_cba_7731"), {
    accountNumber: "10234821",
    bsb: "062-000",
    nickname: "Everyday Smart Access",
    productName: "Smart Access",
    creationDate: anchored("2019-03-14", ref),
  } satisfies Partial<Account>);
  Object.assign(byId(data.accounts, "acc_cba_9902"), {
    accountNumber: "10241077",
    bsb: "062-000",
    nickname: "Home Loan",
    productName: "Standard Variable Rate Home Loan",
    creationDate: anchored("2021-07-02", ref),
  } satisfies Partial<Account>);
  documentAccountTerms(data);
}

/**
 * The detailed accounts examples: the everyday account (its own Osko feature and paper statement
 * fee, no interest), the home loan on the Wealth Package rate, the Westpac card and the NAB term
 * deposit, with their numbers, names, addresses, terms and loan, card and deposit details.
 */
function documentAccountTerms(data: DataSet): void {
  const ref = data.referenceDate;
  const smithStreet = {
    type: "RESIDENTIAL",
    suburb: "Fitzroy",
    state: "VIC",
    postcode: "3065",
    country: "AUS",
  } as const;
  const account = (id: string, fields: Partial<Account>) => Object.assign(byId(data.accounts, id), fields);
  account("acc_cba_7731", {
    displayName: "Everyday Smart Access",
    ownership: "ONE_PARTY",
    addressForm: "simple",
    address: { ...smithStreet, line: "Unit 4, 21 Smith Street", ...street(21, "Smith", "STREET") },
    rates: [],
    features: [OSKO],
    fees: [
      fee("Paper statement fee", "EVENT", 250, {
        info: "Charged for each paper statement mailed",
        discounts: [
          {
            description: "Waived for customers under 18",
            discountType: "ELIGIBILITY_ONLY",
            amountCents: 250,
            rate: null,
            eligibility: [{ type: "MAX_AGE", value: "17", info: "Customers aged 17 or younger" }],
          },
        ],
      }),
    ],
  });
  const homeLoan = account("acc_cba_9902", {
    displayName: "Standard Variable Rate Home Loan",
    bundleName: "Wealth Package",
    ownership: "ONE_PARTY",
    addressForm: "paf",
    address: { ...smithStreet, flatUnit: "4", ...street(21, "Smith", "ST") },
    dpid: "52354418",
    rates: [
      rateOf("lending", "VARIABLE", "0.0624", {
        comparisonRate: "0.0641",
        loanPurpose: "OWNER_OCCUPIED",
        repaymentType: "PRINCIPAL_AND_INTEREST",
        interestPaymentDue: "IN_ARREARS,IN_ADVANCE",
        info: "Wealth Package discounted variable rate",
        conditionType: "OTHER",
        condition: "Requires an active Wealth Package.",
        tiers: [
          {
            name: "Loan to value ratio up to 80%",
            unitOfMeasure: "PERCENT",
            minimum: 0,
            maximum: 80,
            method: "WHOLE_BALANCE",
            info: "Loan to value ratio up to 80%",
          },
        ],
      }),
    ],
    features: [
      {
        featureType: "OFFSET",
        info: "100% offset against a linked transaction account",
        value: "",
        activated: true,
      },
      { featureType: "REDRAW", info: "Free redraw of extra repayments", value: "", activated: true },
    ],
    fees: [
      fee("Wealth Package fee", "PERIODIC", 39_500, { additionalValue: "P1Y", info: "Annual package fee" }),
    ],
  });
  // The loan starts when the account is opened, for thirty years; its next monthly instalment is due
  // in two days.
  Object.assign(homeLoan.loan!, {
    startDate: anchored("2021-07-02", ref),
    endDate: anchored("2051-07-02", ref),
    originalCents: 64_000_000,
    nextInstalmentDate: anchored("2026-07-02", ref),
    instalmentCents: 393_618,
    maxRedrawCents: 1_825_000,
    minRedrawCents: 50_000,
    frequency: "P1M",
    repaymentType: "PRINCIPAL_AND_INTEREST",
    offsetAccountIds: ["acc_cba_7731"],
  });
  const card = account("acc_wbc_3310", {
    accountNumber: "4564700012343310",
    displayName: "Westpac Low Rate Card",
    productName: "Low Rate Card",
    ownership: "ONE_PARTY",
    creationDate: anchored("2022-11-20", ref),
    rates: [rateOf("lending", "PURCHASE", "0.1374"), rateOf("lending", "CASH_ADVANCE", "0.2149")],
    fees: [
      fee("Annual card fee", "PERIODIC", 5_900, { additionalValue: "P1Y" }),
      fee("Foreign transaction fee", "TRANSACTION", null, {
        rate: "0.03",
        rateType: "transaction",
        info: "3% of the Australian dollar amount of each foreign transaction",
      }),
    ],
  });
  Object.assign(card.creditCard!, {
    minPaymentCents: 2_500,
    dueCents: 41_260,
    dueDate: anchored("2026-07-14", ref),
  });
  const deposit = account("acc_nab_5528", {
    accountNumber: "512345528",
    bsb: "083-004",
    displayName: "NAB Term Deposit",
    productName: "NAB Term Deposit",
    ownership: "ONE_PARTY",
    creationDate: anchored("2026-06-01", ref),
    rates: [
      rateOf("deposit", "FIXED", "0.0430", {
        applicationType: "AT_MATURITY",
        applicationFrequency: "P12M",
        additionalValue: "P12M",
        info: "Fixed rate for a 12 month term, interest paid at maturity",
        tiers: [
          {
            name: "$5,000 to $1,999,999",
            unitOfMeasure: "DOLLAR",
            minimum: 5_000,
            maximum: 1_999_999,
            method: "WHOLE_BALANCE",
            info: "Deposits from $5,000 to $1,999,999",
          },
        ],
      }),
    ],
  });
  Object.assign(deposit.termDeposit!, {
    lodgementDate: anchored("2026-06-01", ref),
    maturityDate: anchored("2027-06-01", ref),
    maturityCents: 5_215_000,
    instructions: "ROLLED_OVER",
  });
}

/** Gives the documented banking and energy records of the person their example values. */
export function documentHoldings(data: DataSet): void {
  const person = data.endUsers[0]!;
  documentAccounts(data);
  documentScheduledPayments(data, documentPayees(data, person));
  documentDirectDebits(data, person);
  documentEnergy(data);
  documentDer(data);
}

/**
 * The first two AGL plans and the first Origin Energy plan, as the plans examples show them: AGL's
 * Value Saver and Solar Savers in effect until the end of the reference date (AEST), and Origin Basic,
 * a dual-fuel plan that ended a year before it (served with `status=all` only), listed after Origin
 * Energy's other plans so that it is the last page of `status=all` (the `originAll` example). Called
 * before the energy accounts are made, so that none of them is put on the ended plan.
 */
export function documentPlans(plans: EnergyPlan[], referenceDate: string): void {
  const at = (value: string) => anchoredTime(value, referenceDate);
  const agl = {
    brandName: "AGL",
    customerType: "RESIDENTIAL",
    fuelType: "ELECTRICITY",
    type: "MARKET",
    applicationUri: "https://www.agl.com.au/get-connected",
    effectiveFrom: at("2025-07-01T00:00:00+10:00"),
    effectiveTo: at("2026-06-30T23:59:59+10:00"),
    lastUpdated: at("2025-06-20T09:15:00+10:00"),
  } satisfies Partial<EnergyPlan>;
  Object.assign(byId(plans, "AGL123456MRE4"), agl, {
    displayName: "Value Saver",
    description: "A market offer with no lock-in contract and a discount off the usage rates.",
    additionalInformation: {
      overviewUri: "https://www.agl.com.au/residential/energy-plans/value-saver",
      termsUri: "https://www.agl.com.au/terms-conditions",
      eligibilityUri: "https://www.agl.com.au/residential/energy-plans/value-saver#eligibility",
      pricingUri: "https://www.agl.com.au/residential/energy-plans/pricing",
    },
    distributors: ["CitiPower", "Powercor"],
    includedPostcodes: ["3000", "3121", "3182", "3350"],
    excludedPostcodes: ["3922"],
  } satisfies Partial<EnergyPlan>);
  Object.assign(byId(plans, "AGL654321MRG2"), agl, {
    displayName: "Solar Savers",
    description: "A market offer for customers with solar panels, with a higher feed-in tariff.",
    additionalInformation: {
      overviewUri: "https://www.agl.com.au/residential/energy-plans/solar-savers",
      termsUri: "https://www.agl.com.au/terms-conditions",
    },
    distributors: ["Ausgrid", "Endeavour Energy"],
    includedPostcodes: ["2000", "2040", "2150"],
    excludedPostcodes: [],
  } satisfies Partial<EnergyPlan>);
  Object.assign(byId(plans, "ORI789012MR"), {
    brandName: "Origin Energy",
    displayName: "Origin Basic",
    description: "A simple market offer with no discounts and no exit fees.",
    applicationUri: "https://www.originenergy.com.au/electricity-gas/plans/",
    customerType: "RESIDENTIAL",
    fuelType: "DUAL",
    type: "MARKET",
    effectiveFrom: at("2024-07-01T00:00:00+10:00"),
    effectiveTo: at("2025-06-30T23:59:59+10:00"),
    lastUpdated: at("2024-06-28T16:40:00+10:00"),
    additionalInformation: {
      overviewUri: "https://www.originenergy.com.au/electricity-gas/plans/origin-basic/",
      termsUri: "https://www.originenergy.com.au/terms-and-conditions/",
      bundleUri: "https://www.originenergy.com.au/electricity-gas/plans/bundles/",
    },
    distributors: ["Ausgrid"],
    includedPostcodes: ["2000", "2010", "2060"],
    excludedPostcodes: [],
  } satisfies Partial<EnergyPlan>);
  moveAfterItsRetailersPlans(plans, "ORI789012MR");
}

/** Moves a plan after the other plans of its retailer (the order in which the plans are listed). */
function moveAfterItsRetailersPlans(plans: EnergyPlan[], id: string): void {
  const plan = byId(plans, id);
  plans.splice(plans.indexOf(plan), 1);
  let last = plans.length - 1;
  while (last >= 0 && plans[last]!.institutionId !== plan.institutionId) last--;
  plans.splice(last + 1, 0, plan);
}

/**
 * The institutions the institutions example shows: their names, priorities (the banks first, the
 * energy retailers from 10), accessibility and connection status (Westpac and EnergyAustralia
 * degraded, the only institutions that are).
 */
export function documentInstitutions(institutions: Institution[]): void {
  const shown: [string, Partial<Institution>][] = [
    ["inst_cba", { priority: 1 }],
    ["inst_westpac", { priority: 2, connectionStatus: "DEGRADED" }],
    ["inst_anz", { priority: 3 }],
    ["inst_nab", { name: "NAB", priority: 4 }],
    ["inst_agl", { priority: 10 }],
    ["inst_origin", { priority: 11 }],
    ["inst_energyaustralia", { priority: 12, isAccessible: false, connectionStatus: "DEGRADED" }],
  ];
  for (const [id, fields] of shown) Object.assign(byId(institutions, id), { isAccessible: true }, fields);
}

/**
 * The income streams of the person's everyday account that the income example shows, made in its
 * transactions so that they are derived from them (income.ts): the salary (every salary credit of the
 * account is from Harbourside Logistics, the one the transactions example shows, averaging $3,398.75;
 * that one is the last fortnight's pay, and the two paid before Christmas come four days early, so
 * the fortnightly rhythm is not perfect),
 * a fortnightly Services Australia payment of $212.40 that missed one fortnight, and three irregular
 * payments from the person's company. Called after `documentTransactions` (the newest salary is
 * documented there); the caller sorts the transactions again.
 */
export function documentIncome(data: DataSet): void {
  const ref = data.referenceDate;
  const { accountId } = DOCUMENTED_TRANSACTIONS;
  const account = byId(data.accounts, accountId);
  const newest = byId(data.transactions, DOCUMENTED_TRANSACTIONS.ids[1]);
  const isSalary = (t: Transaction) =>
    t.accountId === accountId && t.category === "INCOME" && t.description.startsWith("SALARY ");
  // The documented salary is that fortnight's pay: a generated one in the week before it goes.
  const week = (t: Transaction) => t !== newest && t.postedDate >= addDays(newest.postedDate, -7);
  data.transactions = data.transactions.filter((t) => !(isSalary(t) && week(t)));
  const salaries = data.transactions.filter(isSalary);
  for (const salary of salaries) {
    salary.description = "SALARY HARBOURSIDE LOGISTICS PTY LTD";
    if (/-12-(2[2-9]|3[01])$|-01-0[1-4]$/.test(salary.postedDate)) {
      salary.postedDate = addDays(salary.postedDate, -4);
      salary.executionDate = salary.postedDate;
    }
  }
  // The average of the posted salaries is $3,398.75: the older ones move by the same few cents.
  const posted = salaries.filter((t) => t.status === "POSTED");
  const older = posted.filter((t) => t !== newest);
  const missing = 339_875 * posted.length - posted.reduce((sum, t) => sum + t.amountCents, 0);
  const each = Math.floor(missing / older.length);
  const extra = missing - each * older.length; // 0 <= extra < older.length: a cent more for the first ones
  older.forEach((t, index) => {
    t.amountCents += each + (index < extra ? 1 : 0);
  });
  const credits: [string, number, string][] = [
    ["2026-04-16", 21_240, "SERVICES AUSTRALIA"],
    ["2026-04-30", 21_240, "SERVICES AUSTRALIA"],
    ["2026-05-28", 21_240, "SERVICES AUSTRALIA"],
    ["2026-06-11", 21_240, "SERVICES AUSTRALIA"],
    ["2026-06-25", 21_240, "SERVICES AUSTRALIA"],
    ["2026-03-12", 129_000, "NGUYEN DESIGN STUDIO PTY LTD"],
    ["2026-04-29", 130_000, "NGUYEN DESIGN STUDIO PTY LTD"],
    ["2026-06-10", 86_000, "NGUYEN DESIGN STUDIO PTY LTD"],
  ];
  credits.forEach(([date, amountCents, description], index) => {
    const day = anchored(date, ref);
    data.transactions.push({
      id: `txn_cba_7731_${String(4_700 + index).padStart(6, "0")}`,
      accountId,
      endUserId: account.endUserId,
      amountCents,
      description,
      merchantName: null,
      merchantCategoryCode: null,
      category: "INCOME",
      status: "POSTED",
      postedDate: day,
      executionDate: day,
      minuteOfDay: 600,
      reference: String(745_100_000 + index * 1_103),
      detailType: "TRANSFER_INCOMING",
      billerCode: null,
      npp: null,
      sequence: data.transactions.length,
    });
  });
}

/**
 * The products the products examples show: Macquarie's brand, its savings and transaction accounts
 * (names, texts, pages, dates, the debit card), and Commonwealth Bank's home loan (the product of the
 * person's home loan account) with its summary features, its two fixed fees and its one
 * owner-occupied rate with the comparison rate.
 */
export function documentProducts(products: BankingProduct[], referenceDate: string): void {
  const at = (value: string) => anchoredTime(value, referenceDate);
  for (const product of products.filter((p) => p.institutionId === "inst_mqg")) product.brand = "MACQUARIE";
  const site = "https://www.macquarie.com.au/everyday-banking";
  Object.assign(byId(products, "prd_mqg_savings"), {
    name: "Macquarie Savings Account",
    description: "A high-interest savings account with no account keeping fees.",
    applicationUri: `${site}/savings-account.html`,
    effectiveFrom: at("2025-07-01T00:00:00+10:00"),
    lastUpdated: at("2026-10-14T08:30:00+11:00"),
    isTailored: false,
    additionalInformation: {
      overviewUri: `${site}/savings-account.html`,
      termsUri: "https://www.macquarie.com.au/assets/bfs/documents/personal/banking-terms.pdf",
      feesAndPricingUri: `${site}/savings-account/rates-and-fees.html`,
      bundleUri: `${site}/transaction-account.html`,
      additionalTermsUris: [
        {
          uri: "https://www.macquarie.com.au/assets/bfs/documents/personal/electronic-banking-terms.pdf",
          description: "Electronic banking terms and conditions",
        },
      ],
    },
  } satisfies Partial<BankingProduct>);
  Object.assign(byId(products, "prd_mqg_transaction"), {
    name: "Macquarie Transaction Account",
    description: "An everyday account with no account keeping or Macquarie ATM fees.",
    applicationUri: `${site}/transaction-account.html`,
    effectiveFrom: at("2025-07-01T00:00:00+10:00"),
    lastUpdated: at("2026-09-30T12:00:00+10:00"),
    isTailored: false,
    additionalInformation: {
      overviewUri: `${site}/transaction-account.html`,
      eligibilityUri: `${site}/transaction-account.html#eligibility`,
    },
    cardArt: [
      {
        title: "Macquarie Platinum Debit Card",
        imageUri: "https://www.macquarie.com.au/assets/bfs/images/debit-card-platinum.png",
      },
    ],
  } satisfies Partial<BankingProduct>);
  documentMacquarieDetails(products, at);
  const homeLoan = byId(products, "prd_cba_svr_home_loan");
  const [establishment, monthly, ...others] = homeLoan.fees;
  Object.assign(homeLoan, {
    name: "Standard Variable Rate Home Loan",
    description: "A variable rate home loan with redraw and an optional offset account.",
    summaryFeatures: ["Free redraw", "Offset account available", "Extra repayments without fees"],
    fees: [
      { ...establishment!, name: "Loan establishment fee", amountCents: 60_000 },
      { ...monthly!, name: "Monthly loan service fee", amountCents: 800 },
      ...others.filter((fee) => fee.amountCents === null),
    ],
    rates: [
      {
        ...homeLoan.rates[0]!,
        rate: "0.0624",
        comparisonRate: "0.0638",
        info: "Owner occupied, principal and interest repayments",
      },
    ],
  } satisfies Partial<BankingProduct>);
}

/**
 * The details the product examples show: the Macquarie savings account (its bundle with the
 * transaction account, constraint, eligibility, feature, fee and its two deposit rates) and its Basic
 * Home Loan (one tiered owner-occupied rate, two fixed fees).
 */
function documentMacquarieDetails(products: BankingProduct[], at: (value: string) => string): void {
  const savings = byId(products, "prd_mqg_savings");
  const pricing = "https://www.macquarie.com.au/everyday-banking/savings-account/rates-and-fees.html";
  const bundle = {
    bundleName: "Everyday and savings",
    bundleDescription: "A Macquarie Transaction Account linked to a Macquarie Savings Account",
    bundleInfo: "Transfers between the two accounts are instant",
  };
  Object.assign(byId(products, "prd_mqg_transaction"), bundle);
  const fee = savings.fees[0]!;
  Object.assign(savings, bundle, {
    constraints: [
      { type: "MAX_BALANCE", value: "250000.00", info: "The bonus rate applies to balances up to $250,000" },
    ],
    eligibility: [
      { type: "MIN_AGE", value: "18", info: "Applicants must be 18 or older" },
      { type: "RESIDENCY_STATUS", value: "", info: "Australian residents for tax purposes" },
    ],
    features: [OSKO],
    fees: [
      {
        ...fee,
        name: "Overseas telegraphic transfer fee",
        feeType: "EVENT",
        amountCents: 2_000,
        rate: null,
        rateType: null,
        accrualFrequency: null,
        info: "For each outward international transfer",
        discounts: [
          {
            description: "Waived for Macquarie Private Bank clients",
            discountType: "ELIGIBILITY_ONLY",
            amountCents: 2_000,
            rate: null,
            eligibility: [{ type: "OTHER", info: "Macquarie Private Bank clients" }],
          },
        ],
      },
    ],
    rates: [
      {
        kind: "deposit",
        rateType: "VARIABLE",
        rate: "0.0400",
        calculationFrequency: "P1D",
        applicationFrequency: "P1M",
        applicationType: "PERIODIC",
        info: "Base variable rate",
        infoUri: pricing,
        condition: "Applies to the whole balance.",
        tiers: [],
      },
      {
        kind: "deposit",
        rateType: "INTRODUCTORY",
        rate: "0.0475",
        calculationFrequency: "P1D",
        applicationFrequency: "P1M",
        applicationType: "PERIODIC",
        additionalValue: "P4M",
        info: "Introductory rate for the first 4 months",
        infoUri: pricing,
        conditionType: "NEW_CUSTOMER",
        condition: "New Macquarie savings customers only.",
        conditionUri: pricing,
        tiers: [
          {
            name: "Balances up to $250,000",
            unitOfMeasure: "DOLLAR",
            minimum: 0,
            maximum: 250_000,
            method: "WHOLE_BALANCE",
            info: "Balances above $250,000 earn 2.25% on the whole balance.",
            conditionType: "OTHER",
          },
        ],
      },
    ],
  } satisfies Partial<BankingProduct>);
  const homeLoan = byId(products, "prd_mqg_svr_home_loan");
  const page = "https://www.macquarie.com.au/home-loans/basic-home-loan.html";
  const [establishment, monthly] = homeLoan.fees;
  Object.assign(homeLoan, {
    name: "Basic Home Loan",
    description: "A variable rate home loan for owner occupiers with free redraw.",
    applicationUri: page,
    effectiveFrom: at("2025-09-15T00:00:00+10:00"),
    lastUpdated: at("2026-11-05T10:00:00+11:00"),
    isTailored: true,
    additionalInformation: { overviewUri: page },
    features: [{ featureType: "REDRAW", info: "Free online redraw", value: "", activated: true }],
    fees: [
      {
        ...establishment!,
        name: "Loan establishment fee",
        feeType: "UPFRONT",
        amountCents: 0,
        discounts: [],
      },
      {
        ...monthly!,
        name: "Late payment fee",
        feeType: "EVENT",
        amountCents: 2_000,
        info: "When a repayment is not made by its due date.",
        discounts: [],
      },
    ],
    rates: [
      {
        ...homeLoan.rates[0]!,
        rate: "0.0579",
        comparisonRate: "0.0581",
        loanPurpose: "OWNER_OCCUPIED",
        repaymentType: "PRINCIPAL_AND_INTEREST",
        interestPaymentDue: "IN_ARREARS",
        tiers: [
          {
            name: "Loan to value ratio up to 70%",
            unitOfMeasure: "PERCENT",
            minimum: 0,
            maximum: 70,
            method: "WHOLE_BALANCE",
            info: "Loans of $150,000 or more.",
            conditionType: "OTHER",
          },
        ],
      },
    ],
  } satisfies Partial<BankingProduct>);
}
