/**
 * Response bodies, derived from the one internal model. A view serves only the fields the bundles
 * declare; where the interface gives no field list (the consent record beyond `arrangement_id` and
 * `active`, the detailed banking transaction, the common identity items), it serves what is
 * documented and nothing else. Versions differ only through the flags of shapes.ts.
 */

import type {
  Account,
  Address,
  BankingProduct,
  Concession,
  Consent,
  DerRecord,
  DirectDebit,
  EndUser,
  EnergyAccount,
  EnergyPlan,
  Feature,
  Fee,
  Income,
  Institution,
  InternationalAccount,
  PafAddress,
  Payee,
  PaymentDestination,
  ProductPage,
  Rate,
  ScheduledPayment,
  ServicePoint,
  Tier,
  Transaction,
} from "./model.js";
import { streetLine } from "./people.js";
import { productSite } from "./products.js";
import type { ResponseShape } from "./shapes.js";

type Json = Record<string, unknown>;
const CURRENCY = "AUD";
/** The platform that holds each family's records (one id per platform, as the documents' examples show). */
const PLATFORM_IDS = { banking: "plt_cdr_banking", energy: "plt_cdr_energy" } as const;

/** Cents as a JSON number of dollars (summary family). */
const dollars = (cents: number): number => cents / 100;
/** Cents as a decimal string (detailed family: money is a string). */
const money = (cents: number): string => (cents / 100).toFixed(2);

/** Removes null and undefined members, for fields the bundle types as plain strings. */
function compact<T extends Json>(object: T): T {
  for (const key of Object.keys(object))
    if (object[key] === null || object[key] === undefined) delete object[key];
  return object;
}

/** A card number in groups of four; other numbers in the summary form grouped, else as long as the number. */
function maskedNumber(account: Account, spaced: boolean): string {
  const last4 = account.accountNumber.slice(-4);
  if (account.category === "CRED_AND_CHRG_CARDS") return `xxxx xxxx xxxx ${last4}`;
  return spaced
    ? `xxxx xxxx ${last4}`
    : `${"x".repeat(Math.max(account.accountNumber.length - 4, 4))}${last4}`;
}

// ---- Summary family -----------------------------------------------------------------------------

export function summaryAccount(account: Account): Json {
  return {
    id: account.id,
    account_number: maskedNumber(account, true),
    bsb: account.bsb,
    name: account.nickname,
    product_name: account.productName,
    product_category: account.category,
    institution_id: account.institutionId,
    consent_id: account.consentId,
    is_owned: account.isOwned,
    open_status: account.openStatus,
    creation_date: account.creationDate,
  };
}

export function summaryTransaction(transaction: Transaction): Json {
  return {
    id: transaction.id,
    account_id: transaction.accountId,
    amount: dollars(transaction.amountCents),
    currency: CURRENCY,
    description: transaction.description,
    merchant_name: transaction.merchantName,
    category: transaction.category,
    status: transaction.status,
    type: transaction.amountCents < 0 ? "DEBIT" : "CREDIT",
    posted_date: transaction.postedDate,
    execution_date: transaction.executionDate,
    reference: transaction.reference,
  };
}

export function summaryServicePoint(servicePoint: ServicePoint): Json {
  return {
    id: servicePoint.id,
    account_id: servicePoint.accountId,
    address: {
      street: streetLine(servicePoint.address),
      suburb: servicePoint.address.suburb,
      state: servicePoint.address.state,
      postcode: servicePoint.address.postcode,
    },
    classification: servicePoint.classification,
    status: servicePoint.status,
    meter_type: servicePoint.meterType,
    registers: servicePoint.registers.map((r) => ({
      register_id: r.registerId,
      register_type: r.registerType,
      unit: r.unit,
    })),
  };
}

export function summaryConcession(concession: Concession): Json {
  return {
    id: concession.id,
    account_id: concession.accountId,
    type: concession.type,
    display_name: concession.displayName,
    start_date: concession.startDate,
    end_date: concession.endDate,
    percentage: concession.percentage,
    fixed_amount: concession.fixedAmountCents === null ? null : dollars(concession.fixedAmountCents),
  };
}

function identityAddress(address: Address): Json {
  return {
    type: address.type,
    street: streetLine(address),
    suburb: address.suburb,
    state: address.state,
    postcode: address.postcode,
    // The identity read gives the country as the documents show it there, in two letters.
    country: address.country === "AUS" ? "AU" : address.country,
  };
}

/**
 * The identities shared through a consent: the end user's (what is present depends on the consent:
 * energy consents share less), then, under the consent that shares it, the organisation the person
 * runs (`EndUser.business`).
 */
export function summaryIdentities(endUser: EndUser, consent: Consent, industry: string): Json[] {
  const identity: Json = { end_user_id: endUser.id, consent_id: consent.id, type: endUser.type };
  if (endUser.type === "PERSON") {
    identity.first_name = endUser.firstName;
    identity.last_name = endUser.lastName;
    identity.middle_names = endUser.middleNames ?? [];
    if (industry === "banking") identity.date_of_birth = endUser.dateOfBirth;
  } else {
    identity.organisation_name = endUser.organisationName;
    identity.abn = endUser.abn;
  }
  identity.addresses = endUser.addresses.map(identityAddress);
  identity.emails = [{ type: "PRIMARY", address: endUser.email }];
  if (industry === "banking")
    identity.phones = [{ type: endUser.phoneType, number: endUser.phone }, ...(endUser.otherPhones ?? [])];
  const business = endUser.business;
  if (business?.consentId !== consent.id) return [identity];
  return [
    identity,
    {
      end_user_id: endUser.id,
      consent_id: consent.id,
      type: "ORGANISATION",
      organisation_name: business.organisationName,
      abn: business.abn,
      addresses: business.addresses.map(identityAddress),
      emails: [{ type: "PRIMARY", address: business.email }],
      phones: business.phones,
    },
  ];
}

export function summaryIncome(income: Income): Json {
  return {
    account_id: income.accountId,
    source: income.source,
    frequency: income.frequency,
    average_amount: dollars(income.averageCents),
    last_amount: dollars(income.lastCents),
    last_date: income.lastDate,
    confidence: income.confidence,
  };
}

export function summaryScheduledPayment(payment: ScheduledPayment): Json {
  return {
    id: payment.id,
    account_id: payment.accountId,
    payee_reference: payment.payeeReference,
    amount: dollars(payment.amountCents),
    currency: CURRENCY,
    frequency: payment.frequency,
    next_payment_date: payment.nextPaymentDate,
    status: payment.status,
  };
}

export function summaryPayee(payee: Payee): Json {
  return {
    id: payee.id,
    nickname: payee.nickname,
    type: payee.type,
    account_number:
      payee.type === "INTERNATIONAL" ? (payee.international?.accountNumber ?? null) : payee.accountNumber,
    bsb: payee.bsb,
    biller_code: payee.billerCode,
    created_date: payee.createdDate,
  };
}

/** A rate of the detailed family (`"0.0624"`) as the summary family's percentage (`6.24`). */
function percentNumber(rate: string): number {
  return Number((Number(rate) * 100).toFixed(2));
}

/** What a comparison rate is based on: the standard Australian basis. */
const COMPARISON_BASIS = "Comparison rate based on a secured loan of $150,000 over 25 years";

export function summaryProduct(product: BankingProduct, account: Account): Json {
  return {
    id: product.id,
    account_id: account.id,
    name: product.name,
    description: product.description,
    category: product.category,
    features: product.summaryFeatures,
    fees: product.fees
      .filter((fee) => fee.amountCents !== null)
      .map((fee) => ({ name: fee.name, amount: dollars(fee.amountCents!), currency: CURRENCY })),
    // Each rate, then its comparison rate where it has one (as the products example shows them).
    interest_rates: product.rates.flatMap((rate) => [
      { rate: percentNumber(rate.rate), type: rate.rateType, description: rate.info },
      ...(rate.comparisonRate
        ? [{ rate: percentNumber(rate.comparisonRate), type: "COMPARISON", description: COMPARISON_BASIS }]
        : []),
    ]),
  };
}

export function summaryEnergyBalance(account: EnergyAccount): Json {
  return {
    account_id: account.id,
    balance: dollars(account.balanceCents),
    currency: CURRENCY,
    as_of: account.balanceAsOf,
  };
}

// ---- Institutions, consents, end users ----------------------------------------------------------

export function institutionView(institution: Institution): Json {
  const view: Json = {
    id: institution.id,
    name: institution.name,
    industry: institution.industry,
    icon: `https://cdn.cdas.example/institutions/${institution.brand}/icon.png`,
    logo: `https://cdn.cdas.example/institutions/${institution.brand}/logo.svg`,
    is_accessible: institution.isAccessible,
    priority: institution.priority,
  };
  // DEGRADED is the only status value the interface shows; healthy institutions carry none.
  if (institution.connectionStatus === "DEGRADED") view.status = { connections: { status: "DEGRADED" } };
  return view;
}

/** The consent fields the interface gives (`arrangement_id`, `active`); the rest are not shown. */
export function consentView(consent: Consent, shape: ResponseShape): Json {
  return shape.consentFields === "camelCase"
    ? { arrangementId: consent.arrangementId, active: consent.active }
    : { arrangement_id: consent.arrangementId, active: consent.active };
}

export function endUserView(endUser: EndUser): Json {
  return { id: endUser.id, email: endUser.email, name: endUser.name, phone: endUser.phone };
}

// ---- Detailed banking family --------------------------------------------------------------------

function tierView(tier: Tier, shape: ResponseShape): Json {
  const condition = { additional_info: tier.info, additional_info_uri: tier.infoUri ?? "" };
  const bound = (value: number) => (shape.tierBounds === "number" ? value : String(value));
  return compact({
    name: tier.name,
    unit_of_measure: tier.unitOfMeasure,
    rate_application_method: tier.method,
    minimum_value: bound(tier.minimum),
    maximum_value: tier.maximum === null ? null : bound(tier.maximum),
    additional_info: tier.info,
    additional_info_uri: tier.infoUri,
    applicability_conditions:
      shape.applicabilityConditions === "object"
        ? condition
        : [
            {
              rate_applicability_type:
                tier.conditionType ?? (tier.unitOfMeasure === "PERCENT" ? "LVR" : "BALANCE"),
              additional_value: "",
              ...condition,
            },
          ],
  });
}

function rateView(rate: Rate, shape: ResponseShape): Json {
  const condition = {
    additional_info: rate.condition,
    additional_info_uri: rate.conditionUri ?? rate.infoUri,
  };
  const view: Json = {
    rate: rate.rate,
    calculation_frequency: rate.calculationFrequency,
    application_frequency: rate.applicationFrequency,
    additional_info: rate.info,
    additional_info_uri: rate.infoUri,
    applicability_conditions:
      shape.applicabilityConditions === "object"
        ? condition
        : [
            {
              rate_applicability_type:
                rate.conditionType ?? (rate.rateType === "BONUS" ? "DEPOSIT_BALANCE_INCREASED" : "OTHER"),
              additional_value: "",
              ...condition,
            },
          ],
    tiers: rate.tiers.map((tier) => tierView(tier, shape)),
  };
  if (rate.additionalValue !== undefined) view.additional_value = rate.additionalValue;
  if (shape.rateApplicationType) view.application_type = rate.applicationType;
  if (rate.kind === "deposit") view.deposit_rate_type = rate.rateType;
  else {
    view.lending_rate_type = rate.rateType;
    if (rate.comparisonRate) view.comparison_rate = rate.comparisonRate;
    if (rate.loanPurpose) view.loan_purpose = rate.loanPurpose;
    if (rate.repaymentType) view.repayment_type = rate.repaymentType;
    if (rate.interestPaymentDue) view.interest_payment_due = rate.interestPaymentDue;
  }
  return view;
}

const RATE_KEY = {
  balance: "balance_rate",
  transaction: "transaction_rate",
  accrued: "accrued_rate",
} as const;

/** The v1 field of a rate-based discount, by what it is a rate of. */
const DISCOUNT_RATE_KEY = { ...RATE_KEY, fee: "fee_rate" } as const;

function feeView(fee: Fee, shape: ResponseShape): Json {
  const base: Json = {
    name: fee.name,
    fee_type: fee.feeType,
    currency: CURRENCY,
    additional_info: fee.info,
    additional_info_uri: fee.infoUri,
  };
  if (fee.additionalValue !== undefined) base.additional_value = fee.additionalValue;
  const discounts = fee.discounts.map((discount) => {
    const view: Json = compact({
      description: discount.description,
      discount_type: discount.discountType,
      additional_value: discount.additionalValue,
      additional_info: discount.info,
      additional_info_uri: discount.infoUri,
      eligibility: discount.eligibility.map((e) =>
        compact({
          discount_eligibility_type: e.type,
          additional_value: e.value,
          additional_info: e.info,
          additional_info_uri: e.infoUri,
        }),
      ),
    });
    const rateType = discount.rateType ?? "fee";
    if (shape.feeForm === "flat") {
      if (discount.amountCents !== null) view.amount = money(discount.amountCents);
      if (discount.rate !== null) view[DISCOUNT_RATE_KEY[rateType]] = discount.rate;
    } else if (discount.amountCents !== null) {
      view.discount_method_u_type = "fixedAmount";
      view.fixed_amount = { amount: money(discount.amountCents) };
    } else {
      view.discount_method_u_type = "rateBased";
      view.rate_based = { rate: discount.rate, rate_type: rateType.toUpperCase() };
    }
    return view;
  });
  if (shape.feeForm === "flat") {
    if (fee.amountCents !== null) base.amount = money(fee.amountCents);
    if (fee.rate !== null && fee.rateType) base[RATE_KEY[fee.rateType]] = fee.rate;
    if (fee.accrualFrequency) base.accrual_frequency = fee.accrualFrequency;
  } else if (fee.amountCents !== null) {
    base.fee_method_u_type = "fixedAmount";
    base.fixed_amount = { amount: money(fee.amountCents) };
  } else {
    base.fee_method_u_type = "rateBased";
    base.rate_based = { rate: fee.rate, rate_type: (fee.rateType ?? "balance").toUpperCase() };
  }
  base.discounts = discounts;
  return base;
}

function featureView(feature: Feature, shape: ResponseShape, withActivation: boolean): Json {
  const view: Json = {
    feature_type: feature.featureType,
    additional_info: feature.info,
    additional_value: feature.value,
  };
  if (feature.infoUri !== undefined) view.additional_info_uri = feature.infoUri;
  if (!withActivation) return view;
  // v2 on: the interface shows one value, `ACTIVATED`, and not the others. Another value would be
  // invented, and `ACTIVATED` on a feature that is not would be false, so such a feature has no
  // `is_activated` (the field is optional).
  if (shape.featureActivation === "boolean") view.is_activated = feature.activated;
  else if (feature.activated) view.is_activated = "ACTIVATED";
  return view;
}

/** An address given in PAF parts (`Account.paf`), in the served form. */
function pafView(paf: PafAddress, dpid?: string): Json {
  return compact({
    building_name_1: paf.buildingName1,
    building_name_2: paf.buildingName2,
    flat_unit_type: paf.flatUnitType,
    flat_unit_number: paf.flatUnitNumber,
    floor_level_type: paf.floorLevelType,
    floor_level_number: paf.floorLevelNumber,
    lot_number: paf.lotNumber,
    thoroughfare_number1: paf.thoroughfareNumber1,
    thoroughfare_number1_suffix: paf.thoroughfareNumber1Suffix,
    thoroughfare_number2: paf.thoroughfareNumber2,
    thoroughfare_number2_suffix: paf.thoroughfareNumber2Suffix,
    street_name: paf.streetName,
    street_type: paf.streetType,
    street_suffix: paf.streetSuffix,
    postal_delivery_type: paf.postalDeliveryType,
    postal_delivery_number_prefix: paf.postalDeliveryNumberPrefix,
    postal_delivery_number: paf.postalDeliveryNumber,
    postal_delivery_number_suffix: paf.postalDeliveryNumberSuffix,
    locality_name: paf.localityName,
    postcode: paf.postcode,
    state: paf.state,
    dpid,
  });
}

function bankingAddress(account: Account, name: string, paf: boolean): Json {
  const { address, dpid } = account;
  if (account.paf) return { address_u_type: "paf", paf: pafView(account.paf, dpid) };
  if (paf) {
    return {
      address_u_type: "paf",
      paf: compact({
        flat_unit_type: address.flatUnit ? "UNIT" : null,
        flat_unit_number: address.flatUnit ?? null,
        thoroughfare_number1: address.streetNumber,
        street_name: address.streetName.toUpperCase(),
        street_type: address.streetType,
        locality_name: address.suburb.toUpperCase(),
        postcode: address.postcode,
        state: address.state,
        dpid,
      }),
    };
  }
  const [line2, line3] = account.moreAddressLines ?? [];
  return {
    address_u_type: "simple",
    simple: compact({
      mailing_name: name,
      address_line1: streetLine(address),
      address_line2: line2,
      address_line3: line3,
      city: address.suburb,
      state: address.state,
      postcode: address.postcode,
      country: address.country,
    }),
  };
}

export function bankingAccountView(
  account: Account,
  product: BankingProduct,
  owner: EndUser,
  shape: ResponseShape,
): Json {
  const rates = account.rates ?? product.rates;
  const deposit = rates.filter((r) => r.kind === "deposit");
  const lending = rates.filter((r) => r.kind === "lending");
  const paf = account.addressForm ? account.addressForm === "paf" : owner.type === "PERSON";
  const view: Json = {
    account_id: account.id,
    arrangement_id: account.arrangementId,
    account_number: account.accountNumber,
    masked_number: maskedNumber(account, false),
    bsb: account.bsb,
    display_name: account.displayName,
    nickname: account.nickname,
    product_name: account.productName,
    institution_id: account.institutionId,
    platform_id: PLATFORM_IDS.banking,
    account_ownership: account.ownership,
    open_status: account.openStatus,
    product_category: account.category,
    creation_date: account.creationDate,
    is_owned: account.isOwned,
    addresses: [bankingAddress(account, owner.name, paf)],
    deposit_rates: deposit.map((r) => rateView(r, shape)),
    lending_rates: lending.map((r) => rateView(r, shape)),
    features: (account.features ?? product.features).map((f) => featureView(f, shape, true)),
    fees: (account.fees ?? product.fees).map((f) => feeView(f, shape)),
  };
  const bundleName = account.bundleName ?? product.bundleName;
  if (bundleName) view.bundle_name = bundleName;
  if (account.specificType) view.specific_account_u_type = account.specificType;
  if (deposit[0]) view.deposit_rate = deposit[0].rate;
  if (lending[0]) view.lending_rate = lending[0].rate;
  if (account.creditCard) {
    view.credit_card = {
      min_payment_amount: money(account.creditCard.minPaymentCents),
      payment_currency: CURRENCY,
      payment_due_amount: money(account.creditCard.dueCents),
      payment_due_date: account.creditCard.dueDate,
    };
  }
  if (account.loan) {
    const loan = account.loan;
    view.loan = {
      loan_end_date: loan.endDate,
      max_redraw: money(loan.maxRedrawCents),
      max_redraw_currency: CURRENCY,
      min_instalment_amount: money(loan.instalmentCents),
      min_instalment_currency: CURRENCY,
      min_redraw: money(loan.minRedrawCents ?? 0),
      min_redraw_currency: CURRENCY,
      next_instalment_date: loan.nextInstalmentDate,
      original_loan_amount: money(loan.originalCents),
      original_loan_currency: CURRENCY,
      original_start_date: loan.startDate,
      repayment_frequency: loan.frequency,
      repayment_type: loan.repaymentType,
      offset_account_enabled: loan.offsetAccountIds.length > 0,
      offset_account_ids: loan.offsetAccountIds,
    };
  }
  if (account.termDeposit) {
    view.term_deposit = [
      {
        lodgement_date: account.termDeposit.lodgementDate,
        maturity_date: account.termDeposit.maturityDate,
        maturity_amount: money(account.termDeposit.maturityCents),
        maturity_currency: CURRENCY,
        maturity_instructions: account.termDeposit.instructions,
      },
    ];
  }
  return view;
}

export function directDebitView(debit: DirectDebit): Json {
  return {
    account_id: debit.accountId,
    arrangement_id: debit.arrangementId,
    platform_id: PLATFORM_IDS.banking,
    institution_id: debit.institutionId,
    authorised_entity: {
      description: debit.entity.description,
      financial_institution: debit.entity.financialInstitution,
      abn: debit.entity.abn,
      acn: debit.entity.acn,
      arbn: debit.entity.arbn,
    },
    last_debit_amount: money(debit.lastDebitCents),
    last_debit_date_time: debit.lastDebitAt,
  };
}

const INTERVALS: Record<string, string> = {
  WEEKLY: "P1W",
  FORTNIGHTLY: "P2W",
  MONTHLY: "P1M",
  QUARTERLY: "P3M",
  ANNUALLY: "P1Y",
};

/** A payment's `international` object: the beneficiary and their bank account abroad. */
function internationalView(name: string | null, account: InternationalAccount, message?: string): Json {
  return {
    beneficiary_details: compact({ name, country: account.country, message }),
    bank_details: compact({
      country: account.country,
      account_number: account.accountNumber,
      bank_address: { name: account.bankName, address: account.bankAddress },
      beneficiary_bank_bic: account.bic,
      fed_wire_number: account.fedWireNumber,
      sort_code: account.sortCode,
      chip_number: account.chipNumber,
      routing_number: account.routingNumber,
      legal_entity_identifier: account.legalEntityIdentifier,
    }),
  };
}

/** The `to` of a payment that goes elsewhere than to a saved payee (`ScheduledPayment.destination`). */
function destinationView(destination: PaymentDestination, to: Json): Json {
  switch (destination.form) {
    case "accountId":
      return { ...to, to_utype: "accountId", account_id: destination.accountId };
    case "digitalWallet": {
      const { identifier, name, provider, type } = destination;
      return { ...to, to_utype: "digitalWallet", digital_wallet: { identifier, name, provider, type } };
    }
    case "card":
      return {
        ...to,
        to_utype: "domestic",
        domestic: { payee_account_u_type: "card", card: { card_number: destination.cardNumber } },
      };
    case "international":
      return {
        ...to,
        to_utype: "international",
        international: internationalView(destination.name, destination.account),
      };
  }
}

export function bankingScheduledPaymentView(payment: ScheduledPayment, payee: Payee | undefined): Json {
  let to: Json = {
    payee_id: payment.payeeId,
    nickname: payee?.nickname ?? payment.nickname,
    payee_reference: payment.payeeReference,
  };
  if (payment.destination) {
    to = destinationView(payment.destination, {
      nickname: payment.nickname,
      payee_reference: payment.payeeReference,
    });
  } else if (payee?.type === "BILLER") {
    to.to_utype = "biller";
    to.biller = { biller_code: payee.billerCode, biller_name: payee.billerName, crn: payee.crn };
  } else if (payee?.type === "INTERNATIONAL" && payee.international) {
    to.to_utype = "international";
    to.international = internationalView(payee.accountName, payee.international, payment.payeeReference);
  } else {
    to.to_utype = "domestic";
    to.domestic = payee?.payId
      ? {
          payee_account_u_type: "payId",
          pay_id: { identifier: payee.payId, name: payee.accountName, type: "EMAIL" },
        }
      : {
          payee_account_u_type: "account",
          account: {
            account_name: payee?.accountName ?? payment.nickname,
            bsb: payee?.bsb ?? "",
            account_number: payee?.accountNumber ?? "",
          },
        };
  }
  const recurrence: Json = { next_payment_date: payment.nextPaymentDate };
  if (payment.event !== undefined) {
    recurrence.recurrence_utype = "eventBased";
    recurrence.event_based = { description: payment.event };
  } else if (payment.frequency === "ONE_OFF") {
    recurrence.recurrence_utype = "onceOff";
    recurrence.once_off = { payment_date: payment.nextPaymentDate };
  } else if (payment.lastWeekDay !== undefined) {
    recurrence.recurrence_utype = "lastWeekDay";
    recurrence.last_week_day = compact({
      interval: INTERVALS[payment.frequency],
      last_week_day: payment.lastWeekDay,
      non_business_day_treatment: payment.nonBusinessDayTreatment ?? "AFTER",
      payments_remaining: payment.paymentsRemaining,
      final_payment_date: payment.finalPaymentDate,
    });
  } else {
    recurrence.recurrence_utype = "intervalSchedule";
    recurrence.interval_schedule = compact({
      final_payment_date: payment.finalPaymentDate,
      payments_remaining: payment.paymentsRemaining,
      non_business_day_treatment: payment.nonBusinessDayTreatment ?? "AFTER",
      intervals: [
        compact({ interval: INTERVALS[payment.frequency], day_in_interval: payment.dayInInterval }),
      ],
    });
  }
  return {
    scheduled_payment_id: payment.id,
    arrangement_id: payment.arrangementId,
    platform_id: PLATFORM_IDS.banking,
    institution_id: payment.institutionId,
    nickname: payment.nickname,
    payee_reference: payment.payeeReference,
    payer_reference: payment.payerReference,
    status: payment.status,
    from: { account_id: payment.accountId },
    payment_set: [
      { amount: money(payment.amountCents), currency: CURRENCY, is_amount_calculated: false, to },
    ],
    recurrence,
  };
}

function morePages(pages: ProductPage[] | undefined): Json[] | undefined {
  return pages?.map((page) => ({ additional_info_uri: page.uri, description: page.description }));
}

function documentedProductPages(pages: NonNullable<BankingProduct["additionalInformation"]>): Json {
  return compact({
    overview_uri: pages.overviewUri,
    terms_uri: pages.termsUri,
    eligibility_uri: pages.eligibilityUri,
    fees_and_pricing_uri: pages.feesAndPricingUri,
    bundle_uri: pages.bundleUri,
    additional_overview_uris: morePages(pages.additionalOverviewUris),
    additional_terms_uris: morePages(pages.additionalTermsUris),
    additional_eligibility_uris: morePages(pages.additionalEligibilityUris),
    additional_fees_and_pricing_uris: morePages(pages.additionalFeesAndPricingUris),
    additional_bundle_uris: morePages(pages.additionalBundleUris),
  });
}

export function bankingProductView(product: BankingProduct): Json {
  const site = productSite(product);
  return compact({
    product_id: product.id,
    name: product.name,
    description: product.description,
    brand: product.brand,
    brand_name: product.brandName,
    product_category: product.category,
    institution_id: product.institutionId,
    platform_id: PLATFORM_IDS.banking,
    application_uri: product.applicationUri,
    effective_from: product.effectiveFrom,
    effective_to: product.effectiveTo,
    last_updated: product.lastUpdated,
    is_tailored: product.isTailored,
    additional_information: product.additionalInformation
      ? documentedProductPages(product.additionalInformation)
      : {
          overview_uri: `${site}/products/${product.id}`,
          terms_uri: `${site}/terms/${product.id}`,
          eligibility_uri: `${site}/eligibility/${product.id}`,
          fees_and_pricing_uri: `${site}/fees/${product.id}`,
        },
    card_art: product.cardArt
      ? product.cardArt.map((art) => ({ title: art.title, image_uri: art.imageUri }))
      : product.category === "CRED_AND_CHRG_CARDS"
        ? [{ title: product.name, image_uri: `https://cdn.cdas.example/card-art/${product.id}.png` }]
        : [],
  });
}

export function bankingProductDetailView(
  product: BankingProduct,
  catalogue: BankingProduct[],
  shape: ResponseShape,
): Json {
  const deposit = product.rates.filter((r) => r.kind === "deposit").map((r) => rateView(r, shape));
  const lending = product.rates.filter((r) => r.kind === "lending").map((r) => rateView(r, shape));
  const bundleMates = product.bundleName
    ? catalogue.filter(
        (p) => p.institutionId === product.institutionId && p.bundleName === product.bundleName,
      )
    : [];
  const view: Json = {
    ...bankingProductView(product),
    bundles: product.bundleName
      ? [
          compact({
            name: product.bundleName,
            description: product.bundleDescription ?? `${product.bundleName} bundle`,
            additional_info: product.bundleInfo,
            additional_info_uri: product.bundleInfoUri,
            product_ids: bundleMates.map((p) => p.id),
          }),
        ]
      : [],
    constraints: product.constraints.map((c) =>
      compact({
        constraint_type: c.type,
        additional_value: c.value,
        additional_info: c.info,
        additional_info_uri: c.infoUri,
      }),
    ),
    eligibility: product.eligibility.map((e) =>
      compact({
        eligibility_type: e.type,
        additional_value: e.value,
        additional_info: e.info,
        additional_info_uri: e.infoUri,
      }),
    ),
    features: product.features.map((f) => featureView(f, shape, false)),
    fees: product.fees.map((f) => feeView(f, shape)),
  };
  if (shape.productRateKeys === "camelCase") {
    view.depositRates = deposit;
    view.lendingRates = lending;
  } else {
    view.deposit_rates = deposit;
    view.lending_rates = lending;
  }
  return view;
}

/**
 * A detailed banking transaction. The interface shows no field list for this record, only how
 * `extended_data` changes between versions, so that is all it carries (and only for NPP payments).
 * In v1 the fields of `nppPayload` and the types of `service` and `x2p101_payload` are not shown:
 * `nppPayload` is empty, `service` names the overlay service and `x2p101_payload` is left out.
 */
export function bankingTransactionView(transaction: Transaction, shape: ResponseShape): Json {
  const npp = transaction.npp;
  if (!npp) return {};
  if (shape.extendedData === "nppPayload") return { extended_data: { nppPayload: {}, service: npp.service } };
  return {
    extended_data: {
      extension_u_type: "nppPayload",
      npp_payload: {
        extended_description: npp.extendedDescription,
        service: npp.service,
        service_version: npp.serviceVersion,
      },
    },
  };
}

/**
 * The common identity response: the interface shows no fields for `identities[]` items nor for the
 * deprecated v1 `customer`, so each is an empty object (one identity per end user with data).
 */
export function commonIdentityResponse(endUsers: EndUser[], shape: ResponseShape): Json {
  const body: Json = { identities: endUsers.map(() => ({})) };
  if (shape.identityCustomer && endUsers.length > 0) body.customer = {};
  return body;
}

// ---- Detailed energy family ---------------------------------------------------------------------

export function energyAccountBalanceView(account: EnergyAccount): Json {
  return {
    account_id: account.id,
    arrangement_id: account.arrangementId,
    platform_id: PLATFORM_IDS.energy,
    institution_id: account.institutionId,
    balance: money(account.balanceCents),
  };
}

export function derRecordView(record: DerRecord): Json {
  return {
    service_point_id: record.servicePointId,
    arrangement_id: record.arrangementId,
    platform_id: PLATFORM_IDS.energy,
    institution_id: record.institutionId,
    approved_capacity: record.approvedCapacityKw,
    available_phases_count: record.availablePhases,
    installed_phases_count: record.installedPhases,
    has_central_protection_control: record.centralProtection,
    islandable_installation: record.islandable,
    // The same settings for every installation (the DER example's), but for its export limit.
    protection_mode: {
      export_limit_kva: record.exportLimitKva,
      under_frequency_protection: 47,
      under_frequency_protection_delay: 1.5,
      over_frequency_protection: 52,
      over_frequency_protection_delay: 0.2,
      under_voltage_protection: 180,
      under_voltage_protection_delay: 10,
      over_voltage_protection: 265,
      over_voltage_protection_delay: 1.5,
      sustained_over_voltage: 258,
      sustained_over_voltage_delay: 600,
      frequency_rate_of_change: 4,
      voltage_vector_shift: 0,
      neutral_voltage_displacement: 0,
      inter_trip_scheme: record.centralProtection ? "CENTRAL_PROTECTION_RELAY" : "NONE",
    },
    ac_connections: record.connections.map((connection) => ({
      connection_identifier: connection.identifier,
      count: connection.count,
      equipment_type: connection.equipmentType,
      manufacturer_name: connection.manufacturer,
      inverter_series: connection.inverterSeries,
      inverter_model_number: connection.inverterModel,
      inverter_device_capacity: connection.capacityKw,
      commissioning_date: connection.commissioningDate,
      status: connection.status,
      der_devices: connection.devices.map((device) => ({
        device_identifier: device.identifier,
        count: device.count,
        manufacturer: device.manufacturer,
        model_number: device.modelNumber,
        type: device.type,
        subtype: device.subtype,
        status: device.status,
        nominal_rated_capacity: device.ratedKw,
        nominal_storage_capacity: device.storageKwh,
      })),
    })),
  };
}

export function energyPlanView(plan: EnergyPlan, institution: Institution | undefined): Json {
  const site = institution?.website ?? "https://www.energymadeeasy.gov.au";
  return compact({
    plan_id: plan.id,
    brand: plan.brand,
    brand_name: plan.brandName,
    display_name: plan.displayName,
    description: plan.description,
    application_uri: plan.applicationUri ?? `${site}/plans/${plan.id}/apply`,
    customer_type: plan.customerType,
    fuel_type: plan.fuelType,
    type: plan.type,
    institution_id: plan.institutionId,
    institution_name: institution?.name ?? plan.brandName,
    effective_from: plan.effectiveFrom,
    effective_to: plan.effectiveTo,
    last_updated: plan.lastUpdated,
    additional_information: plan.additionalInformation
      ? compact({
          overview_uri: plan.additionalInformation.overviewUri,
          terms_uri: plan.additionalInformation.termsUri,
          eligibility_uri: plan.additionalInformation.eligibilityUri,
          pricing_uri: plan.additionalInformation.pricingUri,
          bundle_uri: plan.additionalInformation.bundleUri,
        })
      : {
          overview_uri: `${site}/plans/${plan.id}`,
          terms_uri: `${site}/plans/${plan.id}/terms`,
          eligibility_uri: `${site}/plans/${plan.id}/eligibility`,
          pricing_uri: `${site}/plans/${plan.id}/pricing`,
        },
    geography: {
      distributors: plan.distributors,
      included_postcodes: plan.includedPostcodes,
      excluded_postcodes: plan.excludedPostcodes,
    },
  });
}
