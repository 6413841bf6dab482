// The interface spec (/work/shared/interface-spec.md) transcribed table by table, independently of spec/.
// Each constant names the section it comes from; the fidelity tests compare the bundles to it.
import {
  accepting,
  anyObject,
  arr,
  bool,
  date,
  dateTime,
  type Expectation,
  extensibleObj,
  impliedStr,
  impliedUnformattedDate,
  int,
  nullable,
  num,
  obj,
  oneOf,
  openString,
  str,
  strings,
  unformattedDate,
  untyped,
  untypedFields,
  untypedItems,
  withRange,
} from "./expectations";
import { builtOn, type Version } from "./helpers";

/**
 * `additional_info`, `additional_info_uri`, `additional_value` where the interface names them without
 * a type: strings, implied because the interface lists them among the strings of the tier, fee,
 * discount and account-feature objects and never gives them another type.
 */
const impliedAdditional = (...names: string[]) => Object.fromEntries(names.map((name) => [name, impliedStr]));

// ---------------------------------------------------------------- Resources and their fields

/** "Product categories ... common categories, not necessarily complete": an open string. */
export const PRODUCT_CATEGORIES = [
  "TRANS_AND_SAVINGS_ACCOUNTS",
  "CRED_AND_CHRG_CARDS",
  "TERM_DEPOSITS",
  "PERS_LOANS",
  "MARGIN_LOANS",
  "LEASES",
  "TRADE_FINANCE",
  "REGULATED_TRUST_ACCOUNTS",
  "RESIDENTIAL_MORTGAGES",
  "BUSINESS_LOANS",
  "OVERDRAFTS",
];

/** Token response: two shapes (component names from the brief). */
export const TOKEN_RESPONSE_SHAPES: Record<string, Expectation> = {
  TokenResponseAccessToken: obj({ access_token: str, token_type: accepting("Bearer"), expires_in: int }),
  TokenResponseToken: obj({ token: str, expires_in: int }),
};

/** The summary-family resources and the other plain resources, same in every version. */
export const RESOURCES: Record<string, Expectation> = {
  Account: obj({
    ...strings("id", "account_number", "bsb", "name", "product_name", "institution_id", "consent_id"),
    product_category: openString,
    is_owned: bool,
    open_status: oneOf("OPEN", "CLOSED"),
    creation_date: date,
  }),
  Transaction: obj({
    ...strings("id", "account_id", "currency", "description", "reference"),
    amount: num,
    merchant_name: nullable(str),
    category: openString, // "Common categories"
    status: oneOf("POSTED", "PENDING"),
    type: oneOf("DEBIT", "CREDIT"),
    posted_date: date,
    execution_date: date,
  }),
  ServicePoint: obj({
    ...strings("id", "account_id"),
    address: obj(strings("street", "suburb", "state", "postcode")),
    classification: oneOf("SMALL", "LARGE"),
    status: oneOf("ACTIVE", "INACTIVE"),
    meter_type: oneOf("SMART", "BASIC", "INTERVAL"),
    registers: arr(
      obj({ register_id: str, register_type: oneOf("CONSUMPTION", "GENERATION", "DEMAND"), unit: str }),
    ),
  }),
  Concession: obj({
    ...strings("id", "account_id", "display_name"),
    type: oneOf("GOVERNMENT", "RETAILER", "HARDSHIP", "LOYALTY"),
    start_date: unformattedDate, // "Date"
    end_date: nullable(unformattedDate), // "Null when no end"
    percentage: nullable(num),
    fixed_amount: nullable(num),
  }),
  Identity: obj({
    ...strings("end_user_id", "consent_id", "first_name", "last_name", "organisation_name", "abn"),
    type: oneOf("PERSON", "ORGANISATION"),
    middle_names: arr(str),
    date_of_birth: date,
    addresses: arr(
      obj({
        type: oneOf("RESIDENTIAL", "MAILING", "BUSINESS", "REGISTERED"),
        ...strings("street", "suburb", "state", "postcode", "country"),
      }),
    ),
    emails: arr(obj({ type: openString, address: str })), // type "e.g. PRIMARY"
    phones: arr(obj({ type: oneOf("MOBILE", "HOME", "BUSINESS"), number: str })),
  }),
  Income: obj({
    ...strings("account_id", "source"),
    // "WEEKLY, FORTNIGHTLY, MONTHLY in the model; IRREGULAR also listed": all four accepted.
    frequency: oneOf("WEEKLY", "FORTNIGHTLY", "MONTHLY", "IRREGULAR"),
    average_amount: num,
    last_amount: num,
    last_date: unformattedDate, // "Date of most recent income"
    confidence: withRange(num, 0, 1),
  }),
  ScheduledPayment: obj({
    ...strings("id", "account_id", "payee_reference", "currency"),
    amount: num,
    frequency: oneOf("WEEKLY", "FORTNIGHTLY", "MONTHLY", "QUARTERLY", "ANNUALLY", "ONE_OFF"),
    next_payment_date: unformattedDate, // "Date"
    status: openString, // "e.g. ACTIVE", "the only value shown"
  }),
  Payee: obj({
    ...strings("id", "nickname"),
    type: oneOf("DOMESTIC", "BILLER", "INTERNATIONAL"),
    account_number: nullable(str),
    bsb: nullable(str),
    biller_code: nullable(str),
    created_date: unformattedDate, // "Date"
  }),
  Product: obj({
    ...strings("id", "account_id", "name", "description", "category"),
    features: arr(str),
    fees: arr(obj({ name: str, amount: num, currency: str })),
    interest_rates: arr(obj({ rate: num, type: openString, description: str })), // type "e.g. VARIABLE"
  }),
  EnergyBalance: obj({ account_id: str, balance: num, currency: str, as_of: dateTime }),
  Institution: obj({
    ...strings("id", "name", "icon", "logo"),
    industry: oneOf("banking", "energy"),
    is_accessible: bool,
    priority: int,
    // "status (string; a value of DEGRADED is used)": the only value shown, so no enum.
    status: obj({ connections: obj({ status: openString }) }),
  }),
  AuthSession: obj({ auth_url: str, expires_at: int, id: str, session_id: str }),
  AuthSessionRequest: obj(strings("cancel_uri", "end_user_id", "institution_id", "redirect_uri")),
  TokenRequest: obj(strings("client_id", "client_secret")),
  EndUser: obj(strings("id", "email", "name", "phone")),
  DirectDebit: obj({
    ...strings("account_id", "arrangement_id", "platform_id", "institution_id", "last_debit_amount"),
    authorised_entity: obj(untypedFields("abn", "acn", "arbn", "description", "financial_institution")),
    last_debit_date_time: unformattedDate, // "(timestamp)", no ISO 8601
  }),
  EnergyAccountBalance: obj(
    strings("account_id", "arrangement_id", "platform_id", "institution_id", "balance"),
  ),
  DerRecord: obj({
    ...strings("service_point_id", "arrangement_id", "platform_id", "institution_id"),
    approved_capacity: num,
    available_phases_count: int,
    installed_phases_count: int,
    has_central_protection_control: bool,
    islandable_installation: bool,
    protection_mode: obj({
      inter_trip_scheme: str,
      ...Object.fromEntries(
        [
          "export_limit_kva",
          "frequency_rate_of_change",
          "neutral_voltage_displacement",
          "over_frequency_protection",
          "over_frequency_protection_delay",
          "over_voltage_protection",
          "over_voltage_protection_delay",
          "sustained_over_voltage",
          "sustained_over_voltage_delay",
          "under_frequency_protection",
          "under_frequency_protection_delay",
          "under_voltage_protection",
          "under_voltage_protection_delay",
          "voltage_vector_shift",
        ].map((name) => [name, num]),
      ),
    }),
    ac_connections: arr(
      obj({
        commissioning_date: unformattedDate, // "(date)"
        connection_identifier: int,
        count: int,
        ...strings(
          "equipment_type",
          "inverter_model_number",
          "inverter_series",
          "manufacturer_name",
          "status",
        ),
        inverter_device_capacity: num,
        der_devices: arr(
          obj({
            count: int,
            device_identifier: int,
            ...strings("manufacturer", "model_number", "status", "subtype", "type"), // device types: not shown
            nominal_rated_capacity: num,
            nominal_storage_capacity: num,
          }),
        ),
      }),
    ),
  }),
  EnergyPlan: obj({
    ...strings(
      "plan_id",
      "brand",
      "brand_name",
      "display_name",
      "description",
      "application_uri",
      "customer_type",
      "fuel_type",
      "type",
      "institution_id",
      "institution_name",
    ),
    // "(timestamps)": no ISO 8601 here, unlike the banking product's
    effective_from: unformattedDate,
    effective_to: unformattedDate,
    last_updated: unformattedDate,
    additional_information: obj(
      strings("bundle_uri", "eligibility_uri", "overview_uri", "pricing_uri", "terms_uri"),
    ),
    geography: obj({ distributors: arr(str), excluded_postcodes: arr(str), included_postcodes: arr(str) }),
  }),
  BankingScheduledPayment: obj({
    ...strings(
      "scheduled_payment_id",
      "arrangement_id",
      "platform_id",
      "institution_id",
      "nickname",
      "payee_reference",
      "payer_reference",
      "status",
    ),
    from: obj(untypedFields("account_id")),
    payment_set: arr(
      obj({
        amount: str,
        currency: str,
        is_amount_calculated: bool,
        to: obj({
          ...strings("account_id", "nickname", "payee_id", "payee_reference", "to_utype"),
          biller: obj(untypedFields("biller_code", "biller_name", "crn")),
          digital_wallet: obj(untypedFields("identifier", "name", "provider", "type")),
          domestic: obj({
            payee_account_u_type: untyped,
            account: obj(untypedFields("account_name", "account_number", "bsb")),
            card: obj(untypedFields("card_number")),
            pay_id: obj(untypedFields("identifier", "name", "type")),
          }),
          international: obj({
            bank_details: obj({
              ...untypedFields(
                "account_number",
                "beneficiary_bank_bic",
                "chip_number",
                "country",
                "fed_wire_number",
                "legal_entity_identifier",
                "routing_number",
                "sort_code",
              ),
              bank_address: obj(untypedFields("address", "name")),
            }),
            beneficiary_details: obj(untypedFields("country", "message", "name")),
          }),
        }),
      }),
    ),
    recurrence: obj({
      recurrence_utype: str,
      next_payment_date: unformattedDate, // "(date)"
      event_based: obj(untypedFields("description")),
      interval_schedule: obj({
        // Named without a type: a date by its name, and "dates are strings".
        final_payment_date: impliedUnformattedDate,
        non_business_day_treatment: untyped,
        payments_remaining: int,
        // "intervals array of {day_in_interval, interval} durations": durations, no type, no format
        // (unlike the rate frequencies, "ISO 8601 duration").
        intervals: arr(obj(untypedFields("day_in_interval", "interval"))),
      }),
      last_week_day: obj({
        ...untypedFields("last_week_day", "non_business_day_treatment", "interval"),
        final_payment_date: impliedUnformattedDate,
        payments_remaining: int,
      }),
      once_off: obj({ payment_date: impliedUnformattedDate }),
    }),
  }),
  ShortError: obj(strings("id", "message", "name")),
  ExtendedError: obj({ ...strings("id", "message", "name"), fault: bool, temporary: bool, timeout: bool }),
  OffsetLinks: obj({ next: str }),
  CursorLinks: obj({ next: str, prev: str }),
};

// ---------------------------------------------------------------- Detailed banking (version-dependent)

/** `applicability_conditions`: one object in v1; an array of objects from v2 (Versioning, v1 to v2). */
const applicabilityConditions = (v: Version): Expectation =>
  v === "v1"
    ? obj(impliedAdditional("additional_info", "additional_info_uri"))
    : arr(
        obj({
          rate_applicability_type: untyped,
          ...impliedAdditional("additional_value", "additional_info", "additional_info_uri"),
        }),
      );

/** Rate tier: minimum/maximum numbers in v1, strings later. */
export const rateTier = (v: Version): Expectation =>
  obj({
    ...strings(
      "name",
      "unit_of_measure",
      "rate_application_method",
      "additional_info",
      "additional_info_uri",
    ),
    minimum_value: v === "v1" ? num : str,
    maximum_value: v === "v1" ? num : str,
    applicability_conditions: applicabilityConditions(v),
  });

/**
 * Rate object (deposit and lending) fields: "`additional_info`, `additional_info_uri`, `additional_value`,
 * `application_frequency` (ISO 8601 duration), `calculation_frequency` (ISO 8601 duration), `rate`
 * (string)": the "(string)" is `rate`'s alone, so the `additional_*` fields are named without a type.
 * v2 adds `application_type` ("e.g. periodic": no type, but the value given is a word, so a string).
 */
const rateFields = (v: Version): Record<string, Expectation> => ({
  ...impliedAdditional("additional_info", "additional_info_uri", "additional_value"),
  ...strings("application_frequency", "calculation_frequency", "rate"),
  tiers: arr(rateTier(v)),
  applicability_conditions: applicabilityConditions(v),
  ...(v === "v1" ? {} : { application_type: impliedStr }),
});

/** "array of rate objects (below) with `deposit_rate_type`": no type (rate types: not shown). */
export const depositRate = (v: Version): Expectation => obj({ ...rateFields(v), deposit_rate_type: untyped });

/**
 * "`lending_rate_type`, `loan_purpose`, `repayment_type`, `comparison_rate`, `interest_payment_due`
 * (string, may hold comma-joined values)": the "(string)" is `interest_payment_due`'s;
 * `comparison_rate` is a rate ("Money and rate values are strings"); the other three have no type.
 */
export const lendingRate = (v: Version): Expectation =>
  obj({
    ...rateFields(v),
    ...untypedFields("lending_rate_type", "loan_purpose", "repayment_type"),
    comparison_rate: impliedStr,
    interest_payment_due: str,
  });

const eligibility = obj({
  discount_eligibility_type: untyped,
  ...impliedAdditional("additional_info", "additional_info_uri", "additional_value"),
});

/** Fee discount: flat amount and rate fields in v1; `discount_method_u_type` plus nested objects later. */
export const feeDiscount = (v: Version): Expectation =>
  v === "v1"
    ? obj({
        ...strings(
          "description",
          "amount",
          "accrued_rate",
          "balance_rate",
          "fee_rate",
          "transaction_rate",
          "additional_info",
          "additional_info_uri",
          "additional_value",
        ),
        discount_type: openString,
        eligibility: arr(eligibility),
      })
    : obj({
        ...strings("description", "additional_info", "additional_info_uri", "additional_value"),
        discount_type: openString,
        eligibility: arr(eligibility),
        discount_method_u_type: untyped, // "`discount_method_u_type` plus nested ...": no type
        fixed_amount: anyObject,
        rate_based: anyObject,
      });

/** Fee: flat in v1; `fee_method_u_type` plus nested `fixed_amount`/`rate_based` later. fee_type: no enum. */
export const fee = (v: Version): Expectation =>
  v === "v1"
    ? obj({
        ...strings(
          "name",
          "currency",
          "amount",
          "accrued_rate",
          "accrual_frequency",
          "balance_rate",
          "transaction_rate",
          "additional_info",
          "additional_info_uri",
          "additional_value",
        ),
        fee_type: openString,
        discounts: arr(feeDiscount(v)),
      })
    : obj({
        ...strings("name", "currency", "additional_info", "additional_info_uri", "additional_value"),
        fee_type: openString,
        discounts: arr(feeDiscount(v)),
        fee_method_u_type: oneOf("fixedAmount", "rateBased"),
        fixed_amount: obj({ amount: str }),
        rate_based: obj({ rate: str, rate_type: untyped }),
      });

const paf = obj({
  ...strings(
    "building_name_1",
    "building_name_2",
    "dpid",
    "flat_unit_number",
    "flat_unit_type",
    "floor_level_number",
    "floor_level_type",
    "locality_name",
    "lot_number",
    "postal_delivery_number_prefix",
    "postal_delivery_number_suffix",
    "postal_delivery_type",
    "postcode",
    "state",
    "street_name",
    "street_suffix",
    "street_type",
    "thoroughfare_number1_suffix",
    "thoroughfare_number2_suffix",
  ),
  postal_delivery_number: int,
  thoroughfare_number1: int,
  thoroughfare_number2: int,
});

export const bankingAccount = (v: Version): Expectation =>
  obj({
    ...strings(
      "account_id",
      "arrangement_id",
      "account_number",
      "masked_number",
      "bsb",
      "bundle_name",
      "display_name",
      "nickname",
      "product_name",
      "institution_id",
      "platform_id",
      "specific_account_u_type",
      "deposit_rate",
      "lending_rate",
    ),
    account_ownership: openString, // "value ONE_PARTY appears"; the enumeration is not shown
    open_status: accepting("OPEN", "CLOSED"),
    product_category: openString,
    creation_date: unformattedDate, // "string, date"
    is_owned: bool,
    addresses: arr(
      obj({
        address_u_type: str,
        paf,
        simple: obj(
          strings(
            "address_line1",
            "address_line2",
            "address_line3",
            "city",
            "country",
            "mailing_name",
            "postcode",
            "state",
          ),
        ),
      }),
    ),
    credit_card: obj(
      strings("min_payment_amount", "payment_currency", "payment_due_amount", "payment_due_date"),
    ),
    deposit_rates: arr(depositRate(v)),
    lending_rates: arr(lendingRate(v)),
    features: arr(
      obj({
        ...strings("additional_info", "additional_info_uri", "additional_value"),
        feature_type: openString,
        // boolean in v1; a string enum "e.g. ACTIVATED" later, whose values are not shown.
        is_activated: v === "v1" ? bool : openString,
      }),
    ),
    fees: arr(fee(v)),
    loan: obj({
      ...strings(
        "loan_end_date",
        "max_redraw",
        "max_redraw_currency",
        "min_instalment_amount",
        "min_instalment_currency",
        "min_redraw",
        "min_redraw_currency",
        "next_instalment_date",
        "original_loan_amount",
        "original_loan_currency",
        "original_start_date",
        "repayment_frequency",
        "repayment_type",
      ),
      offset_account_enabled: bool,
      offset_account_ids: arr(str),
    }),
    term_deposit: arr(
      obj(
        strings(
          "lodgement_date",
          "maturity_amount",
          "maturity_currency",
          "maturity_date",
          "maturity_instructions",
        ),
      ),
    ),
  });

const additionalUris = arr(obj({ additional_info_uri: impliedStr, description: untyped }));

const bankingProductFields: Record<string, Expectation> = {
  ...strings(
    "product_id",
    "name",
    "description",
    "brand",
    "brand_name",
    "institution_id",
    "platform_id",
    "application_uri",
  ),
  product_category: openString,
  effective_from: dateTime,
  effective_to: dateTime,
  last_updated: dateTime,
  is_tailored: bool,
  additional_information: obj({
    ...strings("bundle_uri", "eligibility_uri", "fees_and_pricing_uri", "overview_uri", "terms_uri"),
    additional_bundle_uris: additionalUris,
    additional_eligibility_uris: additionalUris,
    additional_fees_and_pricing_uris: additionalUris,
    additional_overview_uris: additionalUris,
    additional_terms_uris: additionalUris,
  }),
  card_art: arr(obj(untypedFields("image_uri", "title"))),
};

/** Items of `products` (same in every version). */
export const BANKING_PRODUCT = obj(bankingProductFields);

/** `product` of the single-product read; rate arrays camelCase in v1, snake_case later. */
export const bankingProductDetail = (v: Version): Expectation =>
  obj({
    ...bankingProductFields,
    bundles: arr(
      obj({
        ...untypedFields("name", "description"),
        ...impliedAdditional("additional_info", "additional_info_uri"),
        product_ids: arr(untypedItems),
      }),
    ),
    constraints: arr(
      obj({
        constraint_type: untyped,
        ...impliedAdditional("additional_info", "additional_info_uri", "additional_value"),
      }),
    ),
    eligibility: arr(
      obj({
        eligibility_type: untyped,
        ...impliedAdditional("additional_info", "additional_info_uri", "additional_value"),
      }),
    ),
    // The same four fields the account's `features` gives as strings: implied strings here.
    features: arr(
      obj(
        Object.fromEntries(
          ["feature_type", "additional_info", "additional_info_uri", "additional_value"].map((name) => [
            name,
            impliedStr,
          ]),
        ),
      ),
    ),
    fees: arr(fee(v)),
    ...(v === "v1"
      ? { depositRates: arr(depositRate(v)), lendingRates: arr(lendingRate(v)) }
      : { deposit_rates: arr(depositRate(v)), lending_rates: arr(lendingRate(v)) }),
  });

/** Consent: `arrangement_id` and `active` given, other fields exist (camelCase in v3). */
export const consent = (v: Version): Expectation =>
  extensibleObj(
    builtOn(v, "v3") ? { arrangementId: str, active: bool } : { arrangement_id: str, active: bool },
  );

// ---------------------------------------------------------------- Endpoints

export interface ParamSpec {
  name: string;
  in?: "query" | "path";
  required: boolean | "unspecified";
  type?: "string" | "integer" | "number";
  format?: "date";
  enum?: string[];
  /** Values shown without a complete set (no enum). */
  open?: boolean;
  default?: unknown;
  maximum?: number;
}

const q = (name: string, extra: Partial<ParamSpec> = {}): ParamSpec => ({
  name,
  required: false,
  type: "string",
  ...extra,
});
const endUserId = q("end_user_id", { required: true });
const accountId = q("account_id");
const limit = q("limit", { type: "integer", default: 25 });
const offset = q("offset", { type: "integer" });
const pageSize = q("page[size]", { type: "integer", maximum: 1000 });
const pageAfter = q("page[after]");
const pageBefore = q("page[before]");
const paged = [pageBefore, pageAfter, pageSize];

export type Family = "token" | "auth" | "institutions" | "summary" | "detailed" | "core";

export interface EndpointSpec {
  path: string;
  method: "get" | "post";
  family: Family;
  /** The query and path parameters, exactly (undefined when the interface does not list them). */
  params?: ParamSpec[];
  /** x-cdas-pagination, when the operation is a list. */
  pagination?: { style: "offset" | "cursor" | "none"; items: string };
  /** The list component of the 200 response and the key holding the list ("" = bare array). */
  list?: {
    component: string;
    key: string;
    item: string;
    /** Offset or cursor links next to the list, optional cursor links (`links?`), or maybe-present links. */
    links?: "OffsetLinks" | "CursorLinks" | "OptionalCursorLinks" | "optional";
  };
}

/** Endpoint tables: the token, summary family, institutions, auth session, detailed family, core lists. */
export const endpoints = (v: Version): EndpointSpec[] => [
  { path: "/v1/token", method: "post", family: "token", params: [] },
  { path: "/v1/auth/session", method: "post", family: "auth", params: [] },
  {
    path: "/v1/institutions",
    method: "get",
    family: "institutions",
    params: [
      q("client_id", { required: true }),
      q("industry", { enum: ["banking", "energy"] }),
      q("sess_id"),
      q("institution_mode", { enum: ["recommended"] }),
    ],
    pagination: { style: "none", items: "" },
    list: { component: "InstitutionList", key: "", item: "Institution" },
  },
  {
    path: "/v1/accounts",
    method: "get",
    family: "summary",
    params: [
      endUserId,
      q("institution_id"),
      q("product_category", { open: true }),
      q("open_status", { enum: ["OPEN", "CLOSED"] }),
      limit,
      offset,
    ],
    pagination: { style: "offset", items: "data" },
    list: { component: "AccountList", key: "data", item: "Account", links: "OffsetLinks" },
  },
  {
    path: "/v1/transactions",
    method: "get",
    family: "summary",
    params: [
      endUserId,
      accountId,
      q("from_date", { format: "date" }),
      q("to_date", { format: "date" }),
      q("min_amount", { type: "number" }),
      q("max_amount", { type: "number" }),
      q("status", { enum: ["POSTED", "PENDING"] }),
      limit,
      offset,
    ],
    pagination: { style: "offset", items: "data" },
    list: { component: "TransactionList", key: "data", item: "Transaction", links: "OffsetLinks" },
  },
  {
    path: "/v1/service-points",
    method: "get",
    family: "summary",
    params: [endUserId, accountId, pageSize, pageAfter],
    pagination: { style: "cursor", items: "data" },
    list: { component: "ServicePointList", key: "data", item: "ServicePoint", links: "optional" },
  },
  {
    path: "/v1/concessions",
    method: "get",
    family: "summary",
    params: [endUserId, accountId, pageSize, pageAfter],
    pagination: { style: "cursor", items: "data" },
    list: { component: "ConcessionList", key: "data", item: "Concession", links: "optional" },
  },
  {
    path: "/v1/identity",
    method: "get",
    family: "summary",
    params: [endUserId, q("consent_id")],
    pagination: { style: "none", items: "data" },
    list: { component: "IdentityList", key: "data", item: "Identity", links: "optional" },
  },
  ...(
    [
      ["/v1/income", "IncomeList", "Income"],
      ["/v1/scheduled-payments", "ScheduledPaymentList", "ScheduledPayment"],
      ["/v1/energy-balances", "EnergyBalanceList", "EnergyBalance"],
    ] as const
  ).map(
    ([path, component, item]): EndpointSpec => ({
      path,
      method: "get",
      family: "summary",
      params: [endUserId, accountId],
      pagination: { style: "none", items: "data" },
      list: { component, key: "data", item, links: "optional" },
    }),
  ),
  {
    path: "/v1/payees",
    method: "get",
    family: "summary",
    params: [endUserId, q("type", { enum: ["DOMESTIC", "BILLER", "INTERNATIONAL"] })],
    pagination: { style: "none", items: "data" },
    list: { component: "PayeeList", key: "data", item: "Payee", links: "optional" },
  },
  // "Product (envelope: not shown)": parameters only.
  { path: "/v1/products", method: "get", family: "summary", params: [endUserId, accountId] },
  ...(
    [
      ["/v1/banking/accounts", "BankingAccountList", "accounts", "BankingAccount"],
      ["/v1/banking/acccounts/direct-debits", "DirectDebitList", "direct_debits", "DirectDebit"],
      [
        "/v1/banking/payments/scheduled",
        "BankingScheduledPaymentList",
        "scheduled_payments",
        "BankingScheduledPayment",
      ],
      ["/v1/energy/der", "DerRecordList", "der_records", "DerRecord"],
      ["/v1/energy/balances", "EnergyAccountBalanceList", "balances", "EnergyAccountBalance"],
    ] as const
  ).map(
    ([path, component, key, item]): EndpointSpec => ({
      path,
      method: "get",
      family: "detailed",
      params: [endUserId, ...paged],
      pagination: { style: "cursor", items: key },
      list: { component, key, item, links: "CursorLinks" },
    }),
  ),
  {
    path: "/v1/banking/products",
    method: "get",
    family: "detailed",
    // "required in practice: the only filter given": the required flag is the document's call.
    params: [q("institution_id", { required: "unspecified" }), ...paged],
    pagination: { style: "cursor", items: "products" },
    list: { component: "BankingProductList", key: "products", item: "BankingProduct", links: "CursorLinks" },
  },
  {
    path: "/v1/banking/products/{product_id}",
    method: "get",
    family: "detailed",
    params: [{ name: "product_id", in: "path", required: true, type: "string" }],
  },
  {
    path: "/v1/energy/plans",
    method: "get",
    family: "detailed",
    // retailer_id or institution_id: exactly one of the two is required, so neither alone.
    params: [
      q("retailer_id"),
      q("institution_id"),
      q("status", { enum: ["active", "all"], default: "active" }),
      ...paged,
    ],
    pagination: { style: "cursor", items: "plans" },
    list: { component: "EnergyPlanList", key: "plans", item: "EnergyPlan", links: "CursorLinks" },
  },
  // Shapes affected by version changes only; parameters not shown.
  { path: "/v1/banking/transactions", method: "get", family: "detailed" },
  { path: "/v1/common/identity", method: "get", family: "core" },
  ...(
    [
      ["/v1/consent", "ConsentList", "consents", "Consent"],
      ["/v1/end-users", "EndUserList", "end_users", "EndUser"],
    ] as const
  ).map(
    ([path, component, key, item]): EndpointSpec =>
      builtOn(v, "v3")
        ? {
            path,
            method: "get",
            family: "core",
            params: paged,
            pagination: { style: "cursor", items: key },
            list: { component, key, item, links: "OptionalCursorLinks" },
          }
        : {
            path,
            method: "get",
            family: "core",
            // "Query expires_before: accepted" (v1, v2). The row does not say whether it belongs to the
            // consent list only or to both lists: asserted on the consent list (see the versioning tests).
            params: path === "/v1/consent" ? [{ name: "expires_before", required: false }] : undefined,
            pagination: { style: "none", items: "" },
            list: { component, key: "", item },
          },
  ),
];

/** The 25 paths of the brief, identical in every version. */
export const PATHS = [
  "/v1/token",
  "/v1/auth/session",
  "/v1/institutions",
  "/v1/accounts",
  "/v1/transactions",
  "/v1/service-points",
  "/v1/concessions",
  "/v1/identity",
  "/v1/income",
  "/v1/scheduled-payments",
  "/v1/payees",
  "/v1/products",
  "/v1/energy-balances",
  "/v1/banking/accounts",
  "/v1/banking/acccounts/direct-debits",
  "/v1/banking/payments/scheduled",
  "/v1/banking/products",
  "/v1/banking/products/{product_id}",
  "/v1/banking/transactions",
  "/v1/energy/der",
  "/v1/energy/balances",
  "/v1/energy/plans",
  "/v1/common/identity",
  "/v1/consent",
  "/v1/end-users",
];

/** The component names the brief makes a contract of. */
export const COMPONENT_NAMES = [
  "ShortError",
  "ExtendedError",
  "UndocumentedError",
  "OffsetLinks",
  "CursorLinks",
  "ProductCategory",
  "OpenStatus",
  "TokenRequest",
  "TokenResponse",
  "TokenResponseAccessToken",
  "TokenResponseToken",
  "Institution",
  "InstitutionList",
  "AuthSessionRequest",
  "AuthSession",
  "Account",
  "AccountList",
  "Transaction",
  "TransactionList",
  "ServicePoint",
  "ServicePointList",
  "Concession",
  "ConcessionList",
  "Identity",
  "IdentityList",
  "Income",
  "IncomeList",
  "ScheduledPayment",
  "ScheduledPaymentList",
  "Payee",
  "PayeeList",
  "Product",
  "ProductResponse",
  "EnergyBalance",
  "EnergyBalanceList",
  "BankingAccount",
  "BankingAccountList",
  "DirectDebit",
  "DirectDebitList",
  "BankingScheduledPayment",
  "BankingScheduledPaymentList",
  "BankingProduct",
  "BankingProductList",
  "BankingProductDetail",
  "BankingProductResponse",
  "BankingTransaction",
  "BankingTransactionList",
  "DerRecord",
  "DerRecordList",
  "EnergyAccountBalance",
  "EnergyAccountBalanceList",
  "EnergyPlan",
  "EnergyPlanList",
  "CommonIdentityResponse",
  "Consent",
  "ConsentList",
  "EndUser",
  "EndUserList",
];

/** Operations v1 to v2 changes (their 200 responses only); every other operation is identical. */
export const CHANGED_V1_TO_V2 = [
  "/v1/common/identity",
  "/v1/banking/transactions",
  "/v1/banking/products/{product_id}",
  "/v1/banking/accounts",
];
/** Operations v2 to v3 changes; every other operation is identical. */
export const CHANGED_V2_TO_V3 = ["/v1/consent", "/v1/end-users"];

/** The paths of the operations each version changes from the one before it; a new version adds its entry. */
export const CHANGED_FROM_PREVIOUS: Record<Version, readonly string[]> = {
  v2: CHANGED_V1_TO_V2,
  v3: CHANGED_V2_TO_V3,
};

export function changedFromPrevious(version: Version): readonly string[] {
  const changed = CHANGED_FROM_PREVIOUS[version];
  if (changed === undefined)
    throw new Error(
      `${version}: say which operations it changes in CHANGED_FROM_PREVIOUS (test/interface-model.ts)`,
    );
  return changed;
}
