/**
 * The product catalogue every bank offers (data, not logic): one function per product, each a
 * template filled with the bank's name, website and the rates drawn for it from the seed.
 */
import type { Prng } from "../prng.js";
import type { Feature, Fee, Rate } from "./model.js";

export interface Bank {
  id: string;
  name: string;
  brand: string;
  website: string;
}

/** A product of the catalogue, before it is given to one bank. */
interface Template {
  key: string;
  category: string;
  name: string;
  description: string;
  features: Feature[];
  fees: Fee[];
  rates: Rate[];
  summaryFeatures: string[];
  minAge?: number;
  bundle?: string;
}

/** A bank and its rates drawn from the seed: what its product templates are made from. */
interface BankTerms {
  bank: Bank;
  /** A page of the bank's website. */
  uri: (path: string) => string;
  savingsBase: string;
  bonus: string;
  homeRate: string;
  cardRate: string;
}

/** The templates of a bank's products, in catalogue order. */
export function templates(bank: Bank, rng: Prng): Template[] {
  const terms: BankTerms = {
    bank,
    uri: (path: string) => `${bank.website}/${path}`,
    savingsBase: (rng.int(40, 120) / 10000).toFixed(4),
    bonus: (rng.int(300, 460) / 10000).toFixed(4),
    homeRate: (rng.int(580, 679) / 10000).toFixed(4),
    cardRate: (rng.int(1199, 2099) / 10000).toFixed(4),
  };
  return CATALOGUE.map((template) => template(terms));
}

/** A fee, fixed (`amountCents`) unless `fields` give it a rate; no discount unless given. */
export function fee(
  name: string,
  feeType: string,
  amountCents: number | null,
  fields: Partial<Fee> = {},
): Fee {
  return {
    name,
    feeType,
    amountCents,
    rate: null,
    rateType: null,
    accrualFrequency: null,
    info: "",
    infoUri: "",
    discounts: [],
    ...fields,
  };
}

function fixedFee(
  name: string,
  feeType: string,
  dollars: number,
  info: string,
  uri: string,
  discount?: Fee["discounts"][number],
): Fee {
  return fee(name, feeType, Math.round(dollars * 100), {
    info,
    infoUri: uri,
    discounts: discount ? [discount] : [],
  });
}

function rateFee(
  name: string,
  feeType: string,
  rate: string,
  rateType: "balance" | "transaction" | "accrued",
  info: string,
  uri: string,
): Fee {
  return fee(name, feeType, null, {
    rate,
    rateType,
    accrualFrequency: rateType === "accrued" ? "P1M" : null,
    info,
    infoUri: uri,
  });
}

/** A rate calculated daily and applied monthly, periodically, unless `fields` say otherwise. */
export function rateOf(kind: Rate["kind"], rateType: string, rate: string, fields: Partial<Rate> = {}): Rate {
  return {
    kind,
    rateType,
    rate,
    calculationFrequency: "P1D",
    applicationFrequency: "P1M",
    applicationType: "PERIODIC",
    info: "",
    infoUri: "",
    condition: "",
    tiers: [],
    ...fields,
  };
}

function depositRate(
  rateType: string,
  rate: string,
  info: string,
  uri: string,
  tiers: Rate["tiers"] = [],
): Rate {
  return rateOf("deposit", rateType, rate, {
    applicationFrequency: rateType === "FIXED" ? "P12M" : "P1M",
    applicationType: rateType === "FIXED" ? "AT_MATURITY" : "PERIODIC",
    info,
    infoUri: uri,
    condition:
      rateType === "BONUS"
        ? "Deposit at least $1,000 and make no withdrawals in the month."
        : "Applies to the whole balance.",
    tiers,
  });
}

function lendingRate(
  rateType: string,
  rate: string,
  comparison: string,
  info: string,
  uri: string,
  extra: Partial<Rate> = {},
): Rate {
  return rateOf("lending", rateType, rate, {
    comparisonRate: comparison,
    info,
    infoUri: uri,
    condition: "Applies to the outstanding balance.",
    interestPaymentDue: "IN_ARREARS",
    ...extra,
  });
}

function everydayAccount({ uri, bank }: BankTerms): Template {
  const monthlyFeeDiscount = {
    description: "Monthly fee waived when you deposit $2,000 or more each month",
    discountType: "DEPOSITS",
    amountCents: 400,
    rate: null,
    eligibility: [{ type: "MIN_INCOME", info: "Deposit at least $2,000 in the calendar month" }],
  };
  return {
    key: "transaction",
    category: "TRANS_AND_SAVINGS_ACCOUNTS",
    name: `${bank.name} Everyday Account`,
    description: "A transaction account for day-to-day banking with a Visa debit card.",
    features: [
      { featureType: "CARD_ACCESS", info: "Visa Debit card", value: "VISA", activated: true },
      { featureType: "NPP_PAYID", info: "Receive payments to your PayID", value: "", activated: true },
      {
        featureType: "DIGITAL_WALLET",
        info: "Apple Pay, Google Pay and Samsung Pay",
        value: "",
        activated: false,
      },
    ],
    fees: [
      fixedFee(
        "Monthly account fee",
        "PERIODIC",
        4,
        "Charged monthly unless waived.",
        uri("fees"),
        monthlyFeeDiscount,
      ),
      rateFee(
        "International transaction fee",
        "TRANSACTION",
        "0.0300",
        "transaction",
        "3% of the Australian dollar amount.",
        uri("fees"),
      ),
      fixedFee("Overseas ATM withdrawal", "WITHDRAWAL", 5, "Per withdrawal at an overseas ATM.", uri("fees")),
    ],
    rates: [],
    summaryFeatures: ["Visa Debit card", "PayID", "No fee with $2,000 monthly deposits"],
    bundle: "Everyday Banking",
  };
}

function onlineSaver({ uri, savingsBase, bonus, bank }: BankTerms): Template {
  return {
    key: "savings",
    category: "TRANS_AND_SAVINGS_ACCOUNTS",
    name: `${bank.name} Online Saver`,
    description: "An online savings account with a bonus rate each month you grow your balance.",
    features: [
      {
        featureType: "BONUS_REWARDS",
        info: "Bonus interest each month the conditions are met",
        value: bonus,
        activated: true,
      },
    ],
    fees: [],
    rates: [
      depositRate("VARIABLE", savingsBase, "Standard variable rate.", uri("savings"), [
        {
          name: "Up to $250,000",
          unitOfMeasure: "DOLLAR",
          minimum: 0,
          maximum: 250000,
          method: "WHOLE_BALANCE",
          info: "Balances up to $250,000",
        },
        {
          name: "Above $250,000",
          unitOfMeasure: "DOLLAR",
          minimum: 250000.01,
          maximum: null,
          method: "PER_TIER",
          info: "The part of the balance above $250,000",
        },
      ]),
      depositRate("BONUS", bonus, "Bonus rate when the monthly conditions are met.", uri("savings/bonus")),
    ],
    summaryFeatures: ["Bonus interest", "No account fees"],
    bundle: "Everyday Banking",
  };
}

function lowRateCard({ uri, cardRate, bank }: BankTerms): Template {
  return {
    key: "card",
    category: "CRED_AND_CHRG_CARDS",
    name: `${bank.name} Low Rate Card`,
    description: "A low-rate credit card with up to 55 interest-free days on purchases.",
    features: [
      {
        featureType: "INTEREST_FREE",
        info: "Up to 55 days interest free on purchases",
        value: "P55D",
        activated: true,
      },
      {
        featureType: "ADDITIONAL_CARDS",
        info: "One additional cardholder at no cost",
        value: "1",
        activated: false,
      },
    ],
    fees: [
      fixedFee("Annual fee", "PERIODIC", 59, "Charged on the anniversary of opening.", uri("cards/fees")),
      fixedFee(
        "Late payment fee",
        "LATE",
        20,
        "When the minimum payment is not made by the due date.",
        uri("cards/fees"),
      ),
      rateFee(
        "Cash advance fee",
        "TRANSACTION",
        "0.0200",
        "transaction",
        "2% of the cash advance, minimum $2.50.",
        uri("cards/fees"),
      ),
    ],
    rates: [
      lendingRate("PURCHASE", cardRate, cardRate, "Purchase rate.", uri("cards/rates")),
      lendingRate("CASH_ADVANCE", "0.2174", "0.2174", "Cash advance rate.", uri("cards/rates")),
    ],
    summaryFeatures: ["55 interest-free days", "Low purchase rate"],
  };
}

function businessCard({ uri, bank }: BankTerms): Template {
  return {
    key: "business-card",
    category: "CRED_AND_CHRG_CARDS",
    name: `${bank.name} Business Card`,
    description: "A business credit card with expense management tools.",
    features: [
      { featureType: "ADDITIONAL_CARDS", info: "Up to 10 employee cards", value: "10", activated: true },
    ],
    fees: [fixedFee("Annual fee per card", "PERIODIC", 60, "Per card each year.", uri("business/cards"))],
    rates: [lendingRate("PURCHASE", "0.1699", "0.1699", "Purchase rate.", uri("business/cards"))],
    summaryFeatures: ["Employee cards", "Expense reporting"],
  };
}

function homeLoan({ uri, homeRate, bank }: BankTerms): Template {
  return {
    key: "svr_home_loan",
    category: "RESIDENTIAL_MORTGAGES",
    name: `${bank.name} Standard Variable Rate Home Loan`,
    description: "A variable rate home loan with redraw and a 100% offset account.",
    features: [
      { featureType: "OFFSET", info: "100% offset transaction account", value: "", activated: true },
      { featureType: "REDRAW", info: "Free redraw of extra repayments", value: "", activated: true },
    ],
    fees: [
      fixedFee(
        "Establishment fee",
        "UPFRONT",
        600,
        "Charged when the loan is set up.",
        uri("home-loans/fees"),
      ),
      fixedFee("Monthly service fee", "PERIODIC", 10, "Charged monthly.", uri("home-loans/fees")),
      rateFee(
        "Interest",
        "VARIABLE",
        homeRate,
        "accrued",
        "Interest accrues daily and is charged monthly.",
        uri("home-loans/fees"),
      ),
    ],
    rates: [
      lendingRate(
        "VARIABLE",
        homeRate,
        (Number(homeRate) + 0.0021).toFixed(4),
        "Owner occupied, principal and interest.",
        uri("home-loans/rates"),
        {
          loanPurpose: "OWNER_OCCUPIED",
          repaymentType: "PRINCIPAL_AND_INTEREST",
          tiers: [
            {
              name: "LVR up to 80%",
              unitOfMeasure: "PERCENT",
              minimum: 0,
              maximum: 80,
              method: "WHOLE_BALANCE",
              info: "Loan to value ratio up to 80%",
            },
            {
              name: "LVR above 80%",
              unitOfMeasure: "PERCENT",
              minimum: 80.01,
              maximum: 95,
              method: "WHOLE_BALANCE",
              info: "Loan to value ratio above 80%",
            },
          ],
        },
      ),
      lendingRate(
        "VARIABLE",
        (Number(homeRate) + 0.004).toFixed(4),
        (Number(homeRate) + 0.0062).toFixed(4),
        "Investment, interest only.",
        uri("home-loans/rates"),
        {
          loanPurpose: "INVESTMENT",
          repaymentType: "INTEREST_ONLY",
          interestPaymentDue: "IN_ARREARS,IN_ADVANCE",
        },
      ),
    ],
    summaryFeatures: ["100% offset", "Free redraw", "Extra repayments"],
    minAge: 18,
  };
}

function termDeposit({ uri, bank }: BankTerms): Template {
  return {
    key: "term",
    category: "TERM_DEPOSITS",
    name: `${bank.name} Term Deposit`,
    description: "A fixed rate for a fixed term, from one month to five years.",
    features: [
      {
        featureType: "NOTIFICATIONS",
        info: "Maturity reminder two weeks before",
        value: "",
        activated: true,
      },
    ],
    fees: [
      rateFee(
        "Early withdrawal adjustment",
        "EXIT",
        "0.0100",
        "balance",
        "Interest adjustment on early withdrawal.",
        uri("term-deposits"),
      ),
    ],
    rates: [
      depositRate("FIXED", "0.0475", "Fixed for the chosen term.", uri("term-deposits/rates"), [
        {
          name: "6 to 11 months",
          unitOfMeasure: "MONTH",
          minimum: 6,
          maximum: 11,
          method: "WHOLE_BALANCE",
          info: "Terms from 6 to 11 months",
        },
        {
          name: "12 to 24 months",
          unitOfMeasure: "MONTH",
          minimum: 12,
          maximum: 24,
          method: "WHOLE_BALANCE",
          info: "Terms from 12 to 24 months",
        },
      ]),
    ],
    summaryFeatures: ["Fixed rate", "Terms from 1 month"],
  };
}

function personalLoan({ uri, bank }: BankTerms): Template {
  return {
    key: "personal",
    category: "PERS_LOANS",
    name: `${bank.name} Personal Loan`,
    description: "A fixed rate personal loan from $5,000 to $50,000.",
    features: [
      {
        featureType: "EXTRA_REPAYMENTS",
        info: "Extra repayments without a fee",
        value: "",
        activated: true,
      },
    ],
    fees: [
      fixedFee(
        "Establishment fee",
        "UPFRONT",
        250,
        "Charged when the loan is set up.",
        uri("personal-loans"),
      ),
    ],
    rates: [
      lendingRate("FIXED", "0.0999", "0.1099", "Fixed for the term of the loan.", uri("personal-loans")),
    ],
    summaryFeatures: ["Fixed rate", "No early repayment fee"],
    minAge: 18,
  };
}

function marginLoan({ uri, bank }: BankTerms): Template {
  return {
    key: "margin",
    category: "MARGIN_LOANS",
    name: `${bank.name} Margin Loan`,
    description: "Borrow to invest in approved shares and managed funds.",
    features: [],
    fees: [],
    rates: [
      lendingRate("VARIABLE", "0.0920", "0.0920", "Variable rate on the loan balance.", uri("margin-loans")),
    ],
    summaryFeatures: ["Approved securities list"],
  };
}

function businessAccount({ uri, bank }: BankTerms): Template {
  return {
    key: "business",
    category: "TRANS_AND_SAVINGS_ACCOUNTS",
    name: `${bank.name} Business Transaction Account`,
    description: "A business account with accounting software integration.",
    features: [
      {
        featureType: "UNLIMITED_TXNS",
        info: "Unlimited electronic transactions",
        value: "",
        activated: true,
      },
    ],
    fees: [fixedFee("Monthly account fee", "PERIODIC", 20, "Charged monthly.", uri("business"))],
    rates: [],
    summaryFeatures: ["Xero and MYOB feeds", "Unlimited transactions"],
  };
}

function businessOverdraft({ uri, bank }: BankTerms): Template {
  return {
    key: "overdraft",
    category: "OVERDRAFTS",
    name: `${bank.name} Business Overdraft`,
    description: "A flexible overdraft linked to your business account.",
    features: [],
    fees: [fixedFee("Facility fee", "PERIODIC", 150, "Charged quarterly.", uri("business/overdraft"))],
    rates: [
      lendingRate(
        "VARIABLE",
        "0.1145",
        "0.1145",
        "Variable rate on the amount drawn.",
        uri("business/overdraft"),
      ),
    ],
    summaryFeatures: ["Linked to your business account"],
  };
}

function businessLoan({ uri, bank }: BankTerms): Template {
  return {
    key: "business-loan",
    category: "BUSINESS_LOANS",
    name: `${bank.name} Business Loan`,
    description: "A secured business loan for equipment and growth.",
    features: [],
    fees: [
      fixedFee(
        "Establishment fee",
        "UPFRONT",
        800,
        "Charged when the loan is set up.",
        uri("business/loans"),
      ),
    ],
    rates: [lendingRate("VARIABLE", "0.0895", "0.0950", "Secured, variable.", uri("business/loans"))],
    summaryFeatures: ["Secured and unsecured options"],
  };
}

function equipmentLease({ uri, bank }: BankTerms): Template {
  return {
    key: "lease",
    category: "LEASES",
    name: `${bank.name} Equipment Finance Lease`,
    description: "Lease vehicles and equipment with fixed monthly payments.",
    features: [],
    fees: [
      fixedFee(
        "Documentation fee",
        "UPFRONT",
        395,
        "Charged when the lease is set up.",
        uri("business/leasing"),
      ),
    ],
    rates: [lendingRate("FIXED", "0.0799", "0.0852", "Fixed for the lease term.", uri("business/leasing"))],
    summaryFeatures: ["Fixed monthly payments"],
  };
}

function tradeFinance({ uri, bank }: BankTerms): Template {
  return {
    key: "trade",
    category: "TRADE_FINANCE",
    name: `${bank.name} Trade Finance`,
    description: "Import and export finance and letters of credit.",
    features: [],
    fees: [
      rateFee(
        "Letter of credit fee",
        "TRANSACTION",
        "0.0050",
        "transaction",
        "Of the letter of credit amount.",
        uri("business/trade"),
      ),
    ],
    rates: [
      lendingRate("VARIABLE", "0.0975", "0.0975", "Variable trade finance rate.", uri("business/trade")),
    ],
    summaryFeatures: ["Letters of credit"],
  };
}

function trustAccount({ bank }: BankTerms): Template {
  return {
    key: "trust",
    category: "REGULATED_TRUST_ACCOUNTS",
    name: `${bank.name} Solicitors Trust Account`,
    description: "A regulated trust account for client money.",
    features: [],
    fees: [],
    rates: [],
    summaryFeatures: ["Regulated trust account"],
  };
}

/** The products of every bank, in catalogue order (productsFor draws their dates in this order). */
const CATALOGUE: ((terms: BankTerms) => Template)[] = [
  everydayAccount,
  onlineSaver,
  lowRateCard,
  businessCard,
  homeLoan,
  termDeposit,
  personalLoan,
  marginLoan,
  businessAccount,
  businessOverdraft,
  businessLoan,
  equipmentLease,
  tradeFinance,
  trustAccount,
];
