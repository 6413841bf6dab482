/** Energy data: an end user's retailer account, service points, DER and concessions, and the plans. */
import { addDays, timestamp } from "../dates.js";
import type { Prng } from "../prng.js";
import { consentFor } from "./consents.js";
import type { IdMaker } from "./ids.js";
import type {
  Concession,
  DataSet,
  DerDevice,
  DerRecord,
  EndUser,
  EnergyAccount,
  EnergyPlan,
  ServicePoint,
} from "./model.js";
import { makeAddress } from "./people.js";
import { LOCALITIES, localityOfNmi, RETAILERS } from "./reference.js";

/** Opens the end user's account with the retailer: its service points (with DER where solar), its concessions. */
export function buildEnergy(
  data: DataSet,
  endUser: EndUser,
  rng: Prng,
  ids: IdMaker,
  retailerId: string,
  servicePointCount: number,
): void {
  const account = makeEnergyAccount(data, endUser, rng, ids, retailerId);
  data.energyAccounts.push(account);
  const brand = retailerBrand(data, retailerId);
  for (let i = 0; i < servicePointCount; i++) {
    // The first service point of a person has solar, as every one of an organisation.
    const solar = i === 0 || endUser.type === "ORGANISATION";
    const servicePoint = makeServicePoint(endUser, rng, ids, account, i, {
      solar,
      // A person's last service point (not the only one) is no longer supplied.
      inactive: i > 0 && i === servicePointCount - 1,
      atHome: i === 0 && !data.servicePoints.some((sp) => sp.endUserId === endUser.id),
    });
    data.servicePoints.push(servicePoint);
    if (solar)
      data.derRecords.push(makeDer(rng, servicePoint, data.referenceDate, endUser.type === "ORGANISATION"));
  }
  data.concessions.push(...makeConcessions(data.referenceDate, endUser, ids, account, brand));
}

/** A retailer's brand as it appears in ids (`acc_agl_…`, `con_redenergy_…`, `plan_redenergy_…`). */
const brandInIds = (brand: string): string => brand.replace("-", "");

/** The home battery of the data set (its `identifier` is its place among an installation's devices). */
export const POWERWALL: Omit<DerDevice, "identifier"> = {
  count: 1,
  manufacturer: "Tesla",
  modelNumber: "Powerwall 2",
  type: "STORAGE",
  subtype: "LITHIUM_ION",
  status: "ACTIVE",
  ratedKw: 5,
  storageKwh: 13.5,
};

function retailerBrand(data: DataSet, retailerId: string): string {
  return brandInIds(data.institutions.find((i) => i.id === retailerId)!.brand);
}

function makeEnergyAccount(
  data: DataSet,
  endUser: EndUser,
  rng: Prng,
  ids: IdMaker,
  retailerId: string,
): EnergyAccount {
  const consent = consentFor(data, rng, ids, endUser, retailerId);
  const plan =
    data.plans.find(
      (p) =>
        p.institutionId === retailerId &&
        p.effectiveTo === null &&
        p.customerType === (endUser.type === "PERSON" ? "RESIDENTIAL" : "BUSINESS"),
    ) ?? data.plans.find((p) => p.institutionId === retailerId)!;
  return {
    id: ids.make(`acc_${retailerBrand(data, retailerId)}`, 6),
    endUserId: endUser.id,
    institutionId: retailerId,
    consentId: consent.id,
    arrangementId: consent.arrangementId,
    balanceCents: rng.chance(0.5) ? -rng.cents(40, 480) : rng.chance(0.5) ? rng.cents(5, 120) : 0,
    balanceAsOf: timestamp(addDays(data.referenceDate, -rng.int(0, 3)), rng.int(0, 1439)),
    planId: plan.id,
  };
}

/**
 * The `index`th service point of an account: the end user's first at their address, others elsewhere
 * (at the locality of their NMI where it is a documented one).
 */
function makeServicePoint(
  endUser: EndUser,
  rng: Prng,
  ids: IdMaker,
  account: EnergyAccount,
  index: number,
  { solar, inactive, atHome }: { solar: boolean; inactive: boolean; atHome: boolean },
): ServicePoint {
  const person = endUser.type === "PERSON";
  const home = endUser.addresses[0]!;
  const documentedNmi = ids.documented("nmi");
  const localityIndex = documentedNmi
    ? localityOfNmi(documentedNmi)
    : atHome
      ? LOCALITIES.findIndex((l) => l.suburb === home.suburb)
      : rng.int(0, LOCALITIES.length - 1);
  const locality = LOCALITIES[localityIndex]!;
  const address = atHome ? home : makeAddress(rng, person ? "RESIDENTIAL" : "BUSINESS", localityIndex);
  const nmi = documentedNmi ?? makeNmi(rng, locality.nmiPrefix);
  const registers: ServicePoint["registers"] = [
    { registerId: "E1", registerType: "CONSUMPTION", unit: "KWH" },
  ];
  if (solar) registers.push({ registerId: "B1", registerType: "GENERATION", unit: "KWH" });
  if (!person) registers.push({ registerId: "D1", registerType: "DEMAND", unit: "KVA" });
  return {
    id: nmi,
    endUserId: endUser.id,
    accountId: account.id,
    institutionId: account.institutionId,
    arrangementId: account.arrangementId,
    address: { ...address, type: person ? "RESIDENTIAL" : "BUSINESS" },
    classification: !person && index === 0 ? "LARGE" : "SMALL",
    status: inactive && person ? "INACTIVE" : "ACTIVE",
    meterType: solar ? "SMART" : index % 2 === 0 ? "INTERVAL" : "BASIC",
    registers,
    distributor: locality.distributor,
  };
}

/** A national meter identifier: 10 characters, the distributor's prefix and random digits. */
function makeNmi(rng: Prng, prefix: string): string {
  return `${prefix}${rng.digits(10 - prefix.length)}`;
}

/** The concessions on an account: three of a person's (one ended), one of an organisation's. */
function makeConcessions(
  referenceDate: string,
  endUser: EndUser,
  ids: IdMaker,
  account: EnergyAccount,
  brand: string,
): Concession[] {
  const terms: Omit<Concession, "id" | "endUserId" | "accountId">[] =
    endUser.type === "PERSON"
      ? [
          {
            type: "GOVERNMENT",
            displayName: `${endUser.addresses[0]!.state} Low Income Household Rebate`,
            startDate: addDays(referenceDate, -400),
            endDate: null,
            percentage: null,
            fixedAmountCents: 28500,
          },
          {
            type: "LOYALTY",
            displayName: "Loyalty discount",
            startDate: addDays(referenceDate, -200),
            endDate: addDays(referenceDate, 165),
            percentage: 3,
            fixedAmountCents: null,
          },
          {
            type: "HARDSHIP",
            displayName: "Payment plan support",
            startDate: addDays(referenceDate, -600),
            endDate: addDays(referenceDate, -420),
            percentage: null,
            fixedAmountCents: 5000,
          },
        ]
      : [
          {
            type: "RETAILER",
            displayName: "Small business pay-on-time discount",
            startDate: addDays(referenceDate, -300),
            endDate: null,
            percentage: 7.5,
            fixedAmountCents: null,
          },
        ];
  return terms.map((term) => ({
    id: ids.make(`con_${brand}`),
    endUserId: endUser.id,
    accountId: account.id,
    ...term,
  }));
}

function makeDer(rng: Prng, servicePoint: ServicePoint, referenceDate: string, business: boolean): DerRecord {
  const capacity = business ? 30 : rng.pick([5, 6.6, 8, 10]);
  const battery = rng.chance(0.5);
  const devices = [
    {
      identifier: 1,
      count: business ? 75 : Math.round(capacity * 2.5),
      manufacturer: rng.pick(["Jinko Solar", "Trina Solar", "REC", "LONGi"]),
      modelNumber: `PV-${rng.int(390, 440)}M`,
      type: "SOLAR_PV",
      subtype: "MONOCRYSTALLINE",
      status: "ACTIVE",
      ratedKw: 0.415,
      storageKwh: 0,
    },
  ];
  if (battery) devices.push({ ...POWERWALL, identifier: 2 });
  const inverter = business
    ? { manufacturer: "SMA", series: "Sunny Tripower", model: "STP 25000TL-30" }
    : rng.pick([
        { manufacturer: "Fronius", series: "Primo", model: "Primo 5.0-1" },
        { manufacturer: "SolarEdge", series: "HD-Wave", model: "SE5000H" },
        { manufacturer: "Sungrow", series: "SG-RS", model: "SG5.0RS" },
      ]);
  return {
    servicePointId: servicePoint.id,
    endUserId: servicePoint.endUserId,
    institutionId: servicePoint.institutionId,
    arrangementId: servicePoint.arrangementId,
    approvedCapacityKw: capacity,
    availablePhases: business ? 3 : 1,
    installedPhases: business ? 3 : 1,
    centralProtection: business,
    islandable: battery,
    exportLimitKva: business ? 30 : 5,
    connections: [
      {
        identifier: 1,
        count: 1,
        equipmentType: "INVERTER",
        manufacturer: inverter.manufacturer,
        inverterSeries: inverter.series,
        inverterModel: inverter.model,
        capacityKw: capacity,
        commissioningDate: addDays(referenceDate, -rng.int(200, 1500)),
        status: "ACTIVE",
        devices,
      },
    ],
  };
}

export function makePlans(rng: Prng, ids: IdMaker, referenceDate: string): EnergyPlan[] {
  const plans: EnergyPlan[] = [];
  const templates: {
    name: string;
    customer: EnergyPlan["customerType"];
    fuel: EnergyPlan["fuelType"];
    type: EnergyPlan["type"];
  }[] = [
    { name: "Value Saver", customer: "RESIDENTIAL", fuel: "ELECTRICITY", type: "MARKET" },
    { name: "Solar Savers", customer: "RESIDENTIAL", fuel: "ELECTRICITY", type: "MARKET" },
    { name: "Dual Fuel Essentials", customer: "RESIDENTIAL", fuel: "DUAL", type: "MARKET" },
    { name: "Gas Basic", customer: "RESIDENTIAL", fuel: "GAS", type: "MARKET" },
    { name: "Standing Offer", customer: "RESIDENTIAL", fuel: "ELECTRICITY", type: "STANDING" },
    { name: "Business Saver", customer: "BUSINESS", fuel: "ELECTRICITY", type: "MARKET" },
    { name: "Business Flex", customer: "BUSINESS", fuel: "ELECTRICITY", type: "MARKET" },
  ];
  for (const retailer of RETAILERS) {
    templates.forEach((template, index) => {
      const locality = LOCALITIES[(index + retailer.name.length) % LOCALITIES.length]!;
      const retired = index === 3 || (index === 6 && rng.chance(0.5));
      plans.push({
        id: ids.make(`plan_${brandInIds(retailer.brand)}`, 6),
        institutionId: retailer.id,
        brand: retailer.brand,
        brandName: retailer.name,
        displayName: `${retailer.name} ${template.name}`,
        description: `${template.name} ${template.fuel === "DUAL" ? "electricity and gas" : template.fuel.toLowerCase()} plan for ${template.customer === "BUSINESS" ? "small businesses" : "households"} in ${locality.state}.`,
        customerType: template.customer,
        fuelType: template.fuel,
        type: template.type,
        effectiveFrom: timestamp(addDays(referenceDate, -rng.int(200, 900)), 0),
        effectiveTo: retired ? timestamp(addDays(referenceDate, -rng.int(10, 150)), 0) : null,
        lastUpdated: timestamp(addDays(referenceDate, -rng.int(1, 120)), rng.int(0, 1439)),
        distributors: [locality.distributor],
        includedPostcodes: [locality.postcode, String(Number(locality.postcode) + 1)],
        excludedPostcodes: index % 2 === 0 ? [] : [String(Number(locality.postcode) + 7)],
      });
    });
  }
  return plans;
}
