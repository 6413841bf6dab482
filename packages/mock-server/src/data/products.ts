/** The banking product catalogue of each bank: features, fees, discounts and tiered rates. */
import { addDays, timestamp } from "../dates.js";
import type { Prng } from "../prng.js";
import type { BankingProduct } from "./model.js";
import { type Bank, templates } from "./product-templates.js";

/** A catalogue product's bank site: its `applicationUri` before `/apply/` (the product's default pages live there). */
export const productSite = (product: BankingProduct): string =>
  product.applicationUri.replace(/\/apply\/.*$/, "");

/** The catalogue of one bank. Ids are stable: `prd_<brand>_<key>`. */
export function productsFor(bank: Bank, referenceDate: string, rng: Prng): BankingProduct[] {
  return templates(bank, rng).map((template) => ({
    id: `prd_${bank.brand}_${template.key}`,
    institutionId: bank.id,
    name: template.name,
    description: template.description,
    brand: bank.brand.toUpperCase(),
    brandName: bank.name,
    category: template.category,
    applicationUri: `${bank.website}/apply/${template.key}`,
    effectiveFrom: timestamp(addDays(referenceDate, -rng.int(400, 1500)), 0),
    effectiveTo: null,
    lastUpdated: timestamp(addDays(referenceDate, -rng.int(5, 200)), rng.int(0, 1439)),
    isTailored: template.category === "RESIDENTIAL_MORTGAGES" || template.category === "BUSINESS_LOANS",
    features: template.features,
    fees: template.fees,
    rates: template.rates,
    constraints:
      template.category === "TERM_DEPOSITS"
        ? [{ type: "MIN_BALANCE", value: "5000.00", info: "Minimum deposit $5,000" }]
        : template.category === "PERS_LOANS"
          ? [
              { type: "MIN_LIMIT", value: "5000.00", info: "Borrow from $5,000" },
              { type: "MAX_LIMIT", value: "50000.00", info: "Borrow up to $50,000" },
            ]
          : [],
    eligibility: [
      ...(template.minAge
        ? [{ type: "MIN_AGE", value: String(template.minAge), info: `Aged ${template.minAge} or over` }]
        : []),
      { type: "RESIDENCY_STATUS", value: "", info: "Australian resident" },
    ],
    bundleName: template.bundle ?? null,
    summaryFeatures: template.summaryFeatures,
  }));
}
