/**
 * The sandbox's internal, version-neutral data model. Every version's response shape is derived from
 * these records (see views.ts), so v1 and v2 differ only in form, never in content.
 * Money is held in cents (integers) and rates as decimal strings, to avoid float drift.
 */

export interface Institution {
  id: string;
  name: string;
  industry: "banking" | "energy";
  /** Retailer brand id (energy) or brand slug (banking). */
  brand: string;
  connectionStatus: string;
  isAccessible: boolean;
  priority: number;
  recommended: boolean;
  /** BSBs of branches (banking only). */
  bsbs: string[];
  website: string;
}

export interface Address {
  type: "RESIDENTIAL" | "MAILING" | "BUSINESS" | "REGISTERED";
  /** The street line as written, where it is not a number and a street (`PO Box 1182`, `Level 3, ...`). */
  line?: string;
  flatUnit?: string;
  streetNumber: number;
  streetName: string;
  streetType: string;
  suburb: string;
  state: string;
  postcode: string;
  country: "AUS";
}

export interface EndUser {
  id: string;
  type: "PERSON" | "ORGANISATION";
  /** Display name: the person's full name or the organisation's name. */
  name: string;
  email: string;
  phone: string;
  phoneType: "MOBILE" | "HOME" | "BUSINESS";
  createdAt: string;
  firstName?: string;
  middleNames?: string[];
  lastName?: string;
  dateOfBirth?: string;
  organisationName?: string;
  abn?: string;
  acn?: string;
  addresses: Address[];
  /** Further phone numbers, after `phone`. */
  otherPhones?: { type: "MOBILE" | "HOME" | "BUSINESS"; number: string }[];
  /**
   * An organisation the end user shares the identity of through one of their consents (a company the
   * person runs): an ORGANISATION identity next to the person's, under that consent only.
   */
  business?: {
    consentId: string;
    organisationName: string;
    abn: string;
    addresses: Address[];
    email: string;
    phones: { type: "MOBILE" | "HOME" | "BUSINESS"; number: string }[];
  };
  /** Whether the data set holds consented data for this user (the two main users do). */
  hasData: boolean;
}

export interface Consent {
  id: string;
  arrangementId: string;
  endUserId: string;
  institutionId: string;
  active: boolean;
  status: "ACTIVE" | "EXPIRED" | "REVOKED";
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  permissions: string[];
  sharingDurationDays: number;
}

export interface Tier {
  name: string;
  unitOfMeasure: "DOLLAR" | "MONTH" | "PERCENT";
  minimum: number;
  maximum: number | null;
  method: "WHOLE_BALANCE" | "PER_TIER";
  info: string;
  /** `rate_applicability_type` of the tier's condition (v2 on), where it is not BALANCE or LVR. */
  conditionType?: string;
  /** The tier's page, where it has one (its condition's `additional_info_uri`, empty otherwise). */
  infoUri?: string;
}

export interface Rate {
  kind: "deposit" | "lending";
  /** deposit_rate_type / lending_rate_type. */
  rateType: string;
  rate: string;
  comparisonRate?: string;
  calculationFrequency: string;
  applicationFrequency: string;
  /** v2 `application_type`. */
  applicationType: "PERIODIC" | "AT_MATURITY" | "UNKNOWN";
  info: string;
  infoUri: string;
  condition: string;
  tiers: Tier[];
  loanPurpose?: "OWNER_OCCUPIED" | "INVESTMENT";
  repaymentType?: "PRINCIPAL_AND_INTEREST" | "INTEREST_ONLY";
  interestPaymentDue?: string;
  /** `additional_value` (the term of an introductory rate, `P4M`). */
  additionalValue?: string;
  /** `rate_applicability_type` of the condition (v2 on), where it is not the default for the type. */
  conditionType?: string;
  /** The condition's page, where it is not the rate's. */
  conditionUri?: string;
}

interface Discount {
  description: string;
  discountType: string;
  /** Fixed amount in cents, or null for a rate-based discount. */
  amountCents: number | null;
  rate: string | null;
  /** What a rate-based discount is a rate of: the fee (the default), the balance, the transaction or the accrued amount. */
  rateType?: "fee" | "balance" | "transaction" | "accrued";
  /** `additional_value` (its meaning depends on the type: the balance or deposits it asks for). */
  additionalValue?: string;
  info?: string;
  infoUri?: string;
  eligibility: { type: string; info: string; value?: string; infoUri?: string }[];
}

export interface Fee {
  name: string;
  feeType: string;
  /** Fixed amount in cents, or null for a rate-based fee. */
  amountCents: number | null;
  rate: string | null;
  rateType: "balance" | "transaction" | "accrued" | null;
  accrualFrequency: string | null;
  info: string;
  infoUri: string;
  discounts: Discount[];
  /** `additional_value` (the period of a periodic fee, `P1Y`). */
  additionalValue?: string;
}

export interface Feature {
  featureType: string;
  info: string;
  value: string;
  activated: boolean;
  infoUri?: string;
}

/** A further page about a product (an item of its `additional_*_uris`). */
export interface ProductPage {
  uri: string;
  description: string;
}

export interface BankingProduct {
  id: string;
  institutionId: string;
  name: string;
  description: string;
  brand: string;
  brandName: string;
  category: string;
  applicationUri: string;
  effectiveFrom: string;
  effectiveTo: string | null;
  lastUpdated: string;
  isTailored: boolean;
  features: Feature[];
  fees: Fee[];
  rates: Rate[];
  constraints: { type: string; value: string; info: string; infoUri?: string }[];
  eligibility: { type: string; value: string; info: string; infoUri?: string }[];
  /** Names of other products in the same bundle. */
  bundleName: string | null;
  summaryFeatures: string[];
  /** The product's pages, where they are not the bank's default pages (documented products). */
  additionalInformation?: {
    overviewUri?: string;
    termsUri?: string;
    eligibilityUri?: string;
    feesAndPricingUri?: string;
    bundleUri?: string;
    additionalOverviewUris?: ProductPage[];
    additionalTermsUris?: ProductPage[];
    additionalEligibilityUris?: ProductPage[];
    additionalFeesAndPricingUris?: ProductPage[];
    additionalBundleUris?: ProductPage[];
  };
  /** The images of the cards issued with the product, where they are not the default (card products). */
  cardArt?: { title: string; imageUri: string }[];
  /** The bundle's description and notes, where they are not the default. */
  bundleDescription?: string;
  bundleInfo?: string;
  bundleInfoUri?: string;
}

export interface Account {
  id: string;
  endUserId: string;
  institutionId: string;
  consentId: string;
  arrangementId: string;
  productId: string;
  nickname: string;
  displayName: string;
  productName: string;
  category: string;
  accountNumber: string;
  bsb: string;
  isOwned: boolean;
  ownership: string;
  openStatus: "OPEN" | "CLOSED";
  creationDate: string;
  specificType: string | null;
  balanceCents: number;
  address: Address;
  /** The form the address is served in (the person's are `paf` unless said here) and its delivery point id. */
  addressForm?: "simple" | "paf";
  dpid?: string;
  /**
   * The address in PAF parts, where it has parts beyond a number, a street and a flat (a building, a
   * level, a number range, a lot or a postal delivery point): served as given, in place of `address`.
   */
  paf?: PafAddress;
  /** The lines of the simple form after the first, where the address needs more than one. */
  moreAddressLines?: string[];
  /** The account's own terms, where they are not its product's (a package rate, a card's own fees). */
  rates?: Rate[];
  fees?: Fee[];
  features?: Feature[];
  bundleName?: string;
  creditCard?: { minPaymentCents: number; dueCents: number; dueDate: string };
  loan?: {
    endDate: string;
    originalCents: number;
    startDate: string;
    instalmentCents: number;
    nextInstalmentDate: string;
    frequency: string;
    repaymentType: string;
    maxRedrawCents: number;
    minRedrawCents?: number;
    offsetAccountIds: string[];
  };
  termDeposit?: { lodgementDate: string; maturityDate: string; maturityCents: number; instructions: string };
}

/** An address in Australia Post PAF parts (the `paf` form of a banking account's address). */
export interface PafAddress {
  buildingName1?: string;
  buildingName2?: string;
  flatUnitType?: string;
  flatUnitNumber?: string;
  floorLevelType?: string;
  floorLevelNumber?: string;
  lotNumber?: string;
  thoroughfareNumber1?: number;
  thoroughfareNumber1Suffix?: string;
  thoroughfareNumber2?: number;
  thoroughfareNumber2Suffix?: string;
  streetName?: string;
  streetType?: string;
  streetSuffix?: string;
  postalDeliveryType?: string;
  postalDeliveryNumberPrefix?: string;
  postalDeliveryNumber?: number;
  postalDeliveryNumberSuffix?: string;
  localityName: string;
  state: string;
  postcode: string;
}

export interface Transaction {
  id: string;
  accountId: string;
  endUserId: string;
  amountCents: number;
  description: string;
  merchantName: string | null;
  merchantCategoryCode: string | null;
  category: string;
  status: "POSTED" | "PENDING";
  postedDate: string;
  executionDate: string;
  minuteOfDay: number;
  reference: string;
  /** Detailed-family transaction type (PAYMENT, TRANSFER_INCOMING, ...). */
  detailType: string;
  billerCode: string | null;
  /** Present for NPP (Osko) payments. */
  npp: { extendedDescription: string; service: "X2P1"; serviceVersion: string } | null;
  /** Stable total order: newest first by date, then by this sequence (descending). */
  sequence: number;
}

export interface Payee {
  id: string;
  endUserId: string;
  nickname: string;
  type: "DOMESTIC" | "BILLER" | "INTERNATIONAL";
  accountName: string | null;
  accountNumber: string | null;
  bsb: string | null;
  billerCode: string | null;
  billerName: string | null;
  crn: string | null;
  payId: string | null;
  international: InternationalAccount | null;
  createdDate: string;
}

/** A bank account abroad: its country, bank and BIC, and the codes the country uses beside the BIC. */
export interface InternationalAccount extends InternationalBankCodes {
  country: string;
  bic: string;
  accountNumber: string;
  bankName: string;
  bankAddress: string;
}

/** The codes of a bank abroad beside its BIC, as its country uses them. */
interface InternationalBankCodes {
  fedWireNumber?: string;
  sortCode?: string;
  chipNumber?: string;
  routingNumber?: string;
  legalEntityIdentifier?: string;
}

/**
 * Where a scheduled payment goes when it is not a saved payee: another account of the end user, a
 * digital wallet, a card, or a bank account abroad given in full.
 */
export type PaymentDestination =
  | { form: "accountId"; accountId: string }
  | { form: "digitalWallet"; identifier: string; name: string; provider: string; type: string }
  | { form: "card"; cardNumber: string }
  | { form: "international"; name: string; account: InternationalAccount };

export interface ScheduledPayment {
  id: string;
  endUserId: string;
  accountId: string;
  institutionId: string;
  arrangementId: string;
  payeeId: string;
  nickname: string;
  payeeReference: string;
  payerReference: string;
  amountCents: number;
  frequency: "WEEKLY" | "FORTNIGHTLY" | "MONTHLY" | "QUARTERLY" | "ANNUALLY" | "ONE_OFF";
  nextPaymentDate: string;
  finalPaymentDate: string | null;
  /** Payments left, where the schedule says. */
  paymentsRemaining?: number;
  /** The day in each interval (`P1D`: its first day), where the schedule says. */
  dayInInterval?: string;
  /** Paid on this weekday (1 = Monday ... 7 = Sunday) of the last week of each interval, instead of an interval schedule. */
  lastWeekDay?: number;
  /** `AFTER` unless the schedule says. */
  nonBusinessDayTreatment?: "AFTER" | "BEFORE" | "ON" | "ONLY";
  /** Paid when this event occurs (`event_based`), instead of on a schedule. */
  event?: string;
  /** The destination, where it is not the payee `payeeId` (which the payment then has none of). */
  destination?: PaymentDestination;
  status: "ACTIVE";
}

export interface DirectDebit {
  id: string;
  endUserId: string;
  accountId: string;
  institutionId: string;
  arrangementId: string;
  entity: { description: string; financialInstitution: string; abn: string; acn: string; arbn: string };
  lastDebitCents: number;
  lastDebitAt: string;
}

export interface EnergyAccount {
  id: string;
  endUserId: string;
  institutionId: string;
  consentId: string;
  arrangementId: string;
  balanceCents: number;
  balanceAsOf: string;
  planId: string;
}

interface Register {
  registerId: string;
  registerType: "CONSUMPTION" | "GENERATION" | "DEMAND";
  unit: string;
}

export interface ServicePoint {
  /** The national meter identifier (NMI). */
  id: string;
  endUserId: string;
  accountId: string;
  institutionId: string;
  arrangementId: string;
  address: Address;
  classification: "SMALL" | "LARGE";
  status: "ACTIVE" | "INACTIVE";
  meterType: "SMART" | "BASIC" | "INTERVAL";
  registers: Register[];
  distributor: string;
}

export interface Concession {
  id: string;
  endUserId: string;
  accountId: string;
  type: "GOVERNMENT" | "RETAILER" | "HARDSHIP" | "LOYALTY";
  displayName: string;
  startDate: string;
  endDate: string | null;
  percentage: number | null;
  fixedAmountCents: number | null;
}

export interface DerDevice {
  identifier: number;
  count: number;
  manufacturer: string;
  modelNumber: string;
  type: string;
  subtype: string;
  status: string;
  ratedKw: number;
  storageKwh: number;
}

export interface DerRecord {
  servicePointId: string;
  endUserId: string;
  institutionId: string;
  arrangementId: string;
  approvedCapacityKw: number;
  availablePhases: number;
  installedPhases: number;
  centralProtection: boolean;
  islandable: boolean;
  exportLimitKva: number;
  connections: {
    identifier: number;
    count: number;
    equipmentType: string;
    manufacturer: string;
    inverterSeries: string;
    inverterModel: string;
    capacityKw: number;
    commissioningDate: string;
    status: string;
    devices: DerDevice[];
  }[];
}

export interface EnergyPlan {
  id: string;
  institutionId: string;
  brand: string;
  brandName: string;
  displayName: string;
  description: string;
  customerType: "RESIDENTIAL" | "BUSINESS";
  fuelType: "ELECTRICITY" | "GAS" | "DUAL";
  type: "STANDING" | "MARKET" | "REGULATED";
  effectiveFrom: string;
  effectiveTo: string | null;
  lastUpdated: string;
  distributors: string[];
  includedPostcodes: string[];
  excludedPostcodes: string[];
  /** Where the plan is applied for and its documents, where they are not the retailer's default pages. */
  applicationUri?: string;
  additionalInformation?: Partial<
    Record<"overviewUri" | "termsUri" | "eligibilityUri" | "pricingUri" | "bundleUri", string>
  >;
}

export interface Income {
  endUserId: string;
  accountId: string;
  source: string;
  frequency: "WEEKLY" | "FORTNIGHTLY" | "MONTHLY" | "IRREGULAR";
  averageCents: number;
  lastCents: number;
  lastDate: string;
  confidence: number;
}

export interface DataSet {
  referenceDate: string;
  institutions: Institution[];
  endUsers: EndUser[];
  consents: Consent[];
  products: BankingProduct[];
  accounts: Account[];
  /** Newest first. */
  transactions: Transaction[];
  payees: Payee[];
  scheduledPayments: ScheduledPayment[];
  directDebits: DirectDebit[];
  energyAccounts: EnergyAccount[];
  servicePoints: ServicePoint[];
  concessions: Concession[];
  derRecords: DerRecord[];
  plans: EnergyPlan[];
  incomes: Income[];
}
