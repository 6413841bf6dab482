/**
 * Variety: the optional fields the documents declare that generation gives no record, set on a few
 * records no example shows, so that every declared field of a 2xx response is served by some record
 * (test/strict-contract.test.ts holds it). Like documented.ts, it runs after generation and draws
 * nothing from the seed's generator: the records are chosen by role (the organisation's accounts by
 * category, its scheduled payments by position, CBA's products by id), never by a generated id.
 *
 * - CBA's savings account: its bundle's pages and notes, every `additional_*_uris` list, a feature,
 *   eligibility and tier page, the bonus rate's criteria (`additional_value`).
 * - CBA's term deposit: an end date (`effective_to`), the fixed rate's term, a constraint's page.
 * - The business loan of CBA and of the organisation's bank: a three-year fixed rate in two tiers,
 *   a feature, a line fee (accrued rate), a drawdown fee (transaction rate), an unused limit fee
 *   (balance rate) and an annual review fee, with discounts of every kind.
 * - The organisation's accounts: addresses in every PAF part and in three simple lines.
 * - The organisation's scheduled payments: to its own card account when an event occurs, to a
 *   digital wallet, to a card, and to banks in the United States and the United Kingdom.
 * - The person's Macquarie savings account (acc_mqg_6630, in no example): its own rates and
 *   features, with pages.
 */
import { byId } from "./documented.js";
import type { Account, BankingProduct, DataSet, PafAddress, Rate } from "./model.js";
import { fee, rateOf } from "./product-templates.js";
import { productSite } from "./products.js";

/** Sets the variety on the data set (after documented.ts). */
export function addVariety(data: DataSet): void {
  varySavings(data.products);
  varyTermDeposit(data.products, data.referenceDate);
  const organisation = data.endUsers.find((u) => u.type === "ORGANISATION" && u.hasData);
  const accounts = data.accounts.filter((a) => a.endUserId === organisation?.id);
  const businessLoan = accounts.find((a) => a.category === "BUSINESS_LOANS");
  for (const product of data.products) {
    if (product.id === "prd_cba_business-loan" || product.id === businessLoan?.productId)
      varyBusinessLoan(product);
  }
  varyAddresses(accounts);
  varyPayments(data, accounts);
  varyPersonSavings(data);
}

function varySavings(products: BankingProduct[]): void {
  const savings = byId(products, "prd_cba_savings");
  const site = productSite(savings);
  const page = (path: string, description: string) => ({ uri: `${site}/${path}`, description });
  savings.additionalInformation = {
    overviewUri: `${site}/products/${savings.id}`,
    termsUri: `${site}/terms/${savings.id}`,
    eligibilityUri: `${site}/eligibility/${savings.id}`,
    feesAndPricingUri: `${site}/fees/${savings.id}`,
    bundleUri: `${site}/bundles/everyday-banking`,
    additionalOverviewUris: [page("savings/how-bonus-interest-works", "How bonus interest works")],
    additionalTermsUris: [page("terms/deposit-accounts-pds.pdf", "Deposit accounts product disclosure")],
    additionalEligibilityUris: [page("eligibility/youth-savings", "Savings for customers under 18")],
    additionalFeesAndPricingUris: [page("rates/savings-rate-history", "Past savings interest rates")],
    additionalBundleUris: [page("bundles/everyday-banking/terms.pdf", "Everyday Banking bundle terms")],
  };
  savings.bundleInfo = "Open both accounts together to earn the bonus rate";
  savings.bundleInfoUri = `${site}/bundles/everyday-banking`;
  savings.features = savings.features.map((f, i) =>
    i === 0 ? { ...f, infoUri: `${site}/savings/features` } : f,
  );
  savings.eligibility = savings.eligibility.map((e, i) =>
    i === 0 ? { ...e, infoUri: `${site}/eligibility/${savings.id}` } : e,
  );
  savings.rates = savings.rates.map((rate) => ({
    ...rate,
    tiers: rate.tiers.map((tier) => ({ ...tier, infoUri: `${site}/rates/savings#tiers` })),
    ...(rate.rateType === "BONUS"
      ? { additionalValue: "Deposit at least $200 and make no withdrawals in the month" }
      : {}),
  }));
}

function varyTermDeposit(products: BankingProduct[], referenceDate: string): void {
  const term = byId(products, "prd_cba_term");
  const site = productSite(term);
  // Offered until the end of the year after the reference date (after `effective_from`).
  term.effectiveTo = `${Number(referenceDate.slice(0, 4)) + 1}-12-31T23:59:59Z`;
  term.rates = term.rates.map((rate) =>
    rate.rateType === "FIXED" ? { ...rate, additionalValue: "P12M" } : rate,
  );
  term.constraints = term.constraints.map((c, i) =>
    i === 0 ? { ...c, infoUri: `${site}/term-deposits#minimum-deposit` } : c,
  );
}

/** A business loan with a tiered fixed rate and fees of every method, each with a discount. */
function varyBusinessLoan(product: BankingProduct): void {
  const site = productSite(product);
  const pricing = `${site}/fees/${product.id}`;
  const fixed: Rate = rateOf("lending", "FIXED", "0.0745", {
    info: "Fixed for three years, then the business variable rate",
    infoUri: `${site}/business/loans/fixed-rate`,
    condition: "Secured by residential or commercial property",
    tiers: [
      {
        name: "Loans under $500,000",
        unitOfMeasure: "DOLLAR",
        minimum: 0,
        maximum: 499_999,
        method: "WHOLE_BALANCE",
        info: "The rate for loan amounts under $500,000",
        infoUri: `${site}/business/loans/fixed-rate#tiers`,
      },
      {
        name: "Loans of $500,000 or more",
        unitOfMeasure: "DOLLAR",
        minimum: 500_000,
        maximum: null,
        method: "WHOLE_BALANCE",
        info: "A lower rate for loan amounts of $500,000 or more",
        infoUri: `${site}/business/loans/fixed-rate#tiers`,
      },
    ],
    additionalValue: "P3Y",
  });
  const turnover = {
    type: "MIN_TURNOVER",
    value: "2000000.00",
    info: "Annual turnover of $2 million or more",
    infoUri: `${site}/business/eligibility#turnover`,
  };
  const [establishment, ...others] = product.fees;
  product.fees = [
    ...(establishment
      ? [
          {
            ...establishment,
            discounts: [
              {
                description: "Half the establishment fee for businesses banking with us for two years",
                discountType: "ELIGIBILITY_ONLY",
                amountCents: null,
                rate: "0.50",
                rateType: "fee" as const,
                info: "Applied when the loan is drawn",
                infoUri: `${pricing}#establishment`,
                eligibility: [{ ...turnover }],
              },
            ],
          },
        ]
      : []),
    ...others,
    fee("Line fee", "VARIABLE", null, {
      infoUri: pricing,
      rate: "0.0070",
      rateType: "accrued",
      accrualFrequency: "P1D",
      info: "0.70% a year of the loan limit, accrued daily and charged monthly",
      discounts: [
        {
          description: "A lower line fee for loans of $250,000 or more",
          discountType: "BALANCE",
          amountCents: null,
          rate: "0.0020",
          rateType: "accrued",
          additionalValue: "250000.00",
          eligibility: [{ ...turnover }],
        },
      ],
    }),
    fee("Drawdown fee", "TRANSACTION", null, {
      infoUri: pricing,
      rate: "0.0010",
      rateType: "transaction",
      info: "0.10% of each drawdown",
      discounts: [
        {
          description: "Half the drawdown fee with $10,000 a month deposited to a linked business account",
          discountType: "DEPOSITS",
          amountCents: null,
          rate: "0.0005",
          rateType: "transaction",
          additionalValue: "10000.00",
          eligibility: [],
        },
      ],
    }),
    fee("Unused limit fee", "VARIABLE", null, {
      infoUri: pricing,
      rate: "0.0050",
      rateType: "balance",
      info: "0.50% a year of the undrawn part of the limit",
      discounts: [
        {
          description: "No unused limit fee for businesses with a turnover of $2 million or more",
          discountType: "ELIGIBILITY_ONLY",
          amountCents: null,
          rate: "0.0050",
          rateType: "balance",
          eligibility: [{ ...turnover }],
        },
      ],
    }),
    fee("Annual review fee", "PERIODIC", 25_000, {
      infoUri: pricing,
      info: "Charged on each anniversary of the loan",
      additionalValue: "P1Y",
    }),
  ];
  product.rates = [...product.rates, fixed];
  product.features = [
    ...product.features,
    {
      featureType: "REDRAW",
      info: "Redraw extra repayments made on the variable rate",
      value: "",
      activated: true,
      infoUri: `${site}/business/loans/redraw`,
    },
  ];
}

/** PAF parts and simple lines of business addresses in Braddon (ACT), where the organisation is. */
const ADDRESSES: { category: string; paf?: PafAddress; lines?: string[] }[] = [
  {
    category: "BUSINESS_LOANS",
    paf: {
      buildingName1: "CANBERRA CENTRE",
      buildingName2: "NORTH TOWER",
      floorLevelType: "L",
      floorLevelNumber: "3",
      flatUnitType: "SE",
      flatUnitNumber: "301",
      thoroughfareNumber1: 12,
      thoroughfareNumber1Suffix: "A",
      thoroughfareNumber2: 14,
      thoroughfareNumber2Suffix: "B",
      streetName: "LONSDALE",
      streetType: "ST",
      streetSuffix: "N",
      localityName: "BRADDON",
      state: "ACT",
      postcode: "2612",
    },
  },
  {
    category: "LEASES",
    paf: {
      lotNumber: "7",
      streetName: "MAJURA",
      streetType: "RD",
      localityName: "MAJURA",
      state: "ACT",
      postcode: "2609",
    },
  },
  {
    category: "REGULATED_TRUST_ACCOUNTS",
    paf: {
      postalDeliveryType: "PO BOX",
      postalDeliveryNumberPrefix: "A",
      postalDeliveryNumber: 118,
      postalDeliveryNumberSuffix: "B",
      localityName: "BRADDON",
      state: "ACT",
      postcode: "2612",
    },
  },
  { category: "TRADE_FINANCE", lines: ["Accounts Payable", "Level 3, Suite 301"] },
];

function varyAddresses(accounts: Account[]): void {
  for (const { category, paf, lines } of ADDRESSES) {
    const account = accounts.find((a) => a.category === category);
    if (!account) continue;
    if (paf) Object.assign(account, { addressForm: "paf", paf });
    if (lines) Object.assign(account, { addressForm: "simple", moreAddressLines: lines });
  }
}

/** The organisation's scheduled payments, by position, go elsewhere than to a saved payee. */
function varyPayments(data: DataSet, accounts: Account[]): void {
  const owner = accounts[0]?.endUserId;
  const payments = data.scheduledPayments.filter((p) => p.endUserId === owner);
  const card = accounts.find((a) => a.category === "CRED_AND_CHRG_CARDS");
  const [toOwnCard, toWallet, toCard, toUs, toUk] = payments;
  if (toOwnCard && card) {
    Object.assign(toOwnCard, {
      nickname: "Business card top-up",
      event: "When the balance falls below $100",
      destination: { form: "accountId", accountId: card.id },
    });
  }
  if (toWallet) {
    Object.assign(toWallet, {
      nickname: "Marketplace seller account",
      destination: {
        form: "digitalWallet",
        identifier: "payments@marketplace.example.com.au",
        name: "Marketplace Seller Payments",
        provider: "PAYPAL",
        type: "EMAIL",
      },
    });
  }
  if (toCard) {
    Object.assign(toCard, {
      nickname: "Fuel card",
      destination: { form: "card", cardNumber: "xxxx xxxx xxxx 4821" },
    });
  }
  if (toUs) {
    Object.assign(toUs, {
      nickname: "Pacific Timber Imports",
      destination: {
        form: "international",
        name: "Pacific Timber Imports Inc",
        account: {
          country: "USA",
          accountNumber: "483101090345",
          bic: "CHASUS33",
          bankName: "JPMorgan Chase Bank, N.A.",
          bankAddress: "383 Madison Avenue, New York NY 10179",
          routingNumber: "021000021",
          fedWireNumber: "021000021",
          chipNumber: "0002",
          legalEntityIdentifier: "7H6GLXDRUGQFU57RNE97",
        },
      },
    });
  }
  if (toUk) {
    Object.assign(toUk, {
      nickname: "Thames Joinery",
      destination: {
        form: "international",
        name: "Thames Joinery Ltd",
        account: {
          country: "GBR",
          accountNumber: "31926819",
          bic: "BUKBGB22",
          bankName: "Barclays Bank UK PLC",
          bankAddress: "1 Churchill Place, London E14 5HP",
          sortCode: "20-00-00",
          legalEntityIdentifier: "213800LBQA1Y9L22JB70",
        },
      },
    });
  }
}

/** The person's Macquarie savings account: its own rates (tier pages) and features (pages). */
function varyPersonSavings(data: DataSet): void {
  const account = byId(data.accounts, "acc_mqg_6630");
  const product = byId(data.products, account.productId);
  const site = productSite(product);
  account.rates = (account.rates ?? product.rates).map((rate) => ({
    ...rate,
    tiers: rate.tiers.map((tier) => ({ ...tier, infoUri: `${site}/savings/rates#tiers` })),
  }));
  account.features = (account.features ?? product.features).map((feature) => ({
    ...feature,
    infoUri: `${site}/savings/features`,
  }));
}
