/**
 * The one place where the sandbox's versions differ: each declared version's response forms (v1 in full,
 * each later one as its changes), one flag per row of the interface's versioning tables (what each
 * version changes is said in its document's description, `spec/vN/info.yaml`, and each flag below).
 * The views read these flags and never compare version names. A version of the registry (versions.json) with no entry here takes the forms of the
 * nearest version it is based on (`basedOn`); one with nothing declared in its lineage fails at start.
 */
export interface ResponseShape {
  /** `minimum_value`/`maximum_value` of rate tiers: numbers (v1) or strings (v2 on). */
  tierBounds: "number" | "string";
  /** `applicability_conditions` on rates and tiers: one object (v1) or an array of typed conditions. */
  applicabilityConditions: "object" | "array";
  /** Whether rate objects carry `application_type` (new in v2). */
  rateApplicationType: boolean;
  /** Fees and discounts: flat amount and rate fields (v1) or `*_method_u_type` with nested forms. */
  feeForm: "flat" | "method";
  /** Account feature `is_activated`: a boolean (v1) or a string (v2 on), only ever `ACTIVATED`. */
  featureActivation: "boolean" | "string";
  /** Transactions `extended_data`: `nppPayload` with root `service`/`x2p101_payload` (v1) or `npp_payload`. */
  extendedData: "nppPayload" | "npp_payload";
  /** Rate arrays of the product detail: `depositRates` (v1) or `deposit_rates`. */
  productRateKeys: "camelCase" | "snake_case";
  /** Whether the common identity response has the deprecated `customer` (v1 only). */
  identityCustomer: boolean;
  /** Consent field names: `arrangement_id` (v1, v2) or `arrangementId` (v3). */
  consentFields: "snake_case" | "camelCase";
}

const V1: ResponseShape = {
  tierBounds: "number",
  applicabilityConditions: "object",
  rateApplicationType: false,
  feeForm: "flat",
  featureActivation: "boolean",
  extendedData: "nppPayload",
  productRateKeys: "camelCase",
  identityCustomer: true,
  consentFields: "snake_case",
};

// Each later version says only what it changes, as the interface's versioning tables do.
const V2: ResponseShape = {
  ...V1,
  tierBounds: "string",
  applicabilityConditions: "array",
  rateApplicationType: true,
  feeForm: "method",
  featureActivation: "string",
  extendedData: "npp_payload",
  productRateKeys: "snake_case",
  identityCustomer: false,
};

const V3: ResponseShape = { ...V2, consentFields: "camelCase" };

export const RESPONSE_SHAPES: Readonly<Record<string, ResponseShape>> = { v1: V1, v2: V2, v3: V3 };

/**
 * The response forms of a version: its own declaration, or that of the nearest version of its lineage
 * (the registry's `basedOn` chain, root first, ending with the version itself). Throws when nothing in
 * the lineage is declared.
 */
export function responseShape(version: string, lineage: readonly string[] = [version]): ResponseShape {
  if (lineage.at(-1) !== version)
    throw new Error(`The lineage of ${version} must end with it: ${lineage.join(" <- ")}`);
  for (const name of [...lineage].reverse()) {
    if (Object.hasOwn(RESPONSE_SHAPES, name)) return RESPONSE_SHAPES[name] as ResponseShape;
  }
  throw new Error(
    `The sandbox declares no response shapes for version ${version} nor any version it is based on (${lineage.join(", ")}): add it to src/data/shapes.ts (declared: ${Object.keys(RESPONSE_SHAPES).join(", ")})`,
  );
}
