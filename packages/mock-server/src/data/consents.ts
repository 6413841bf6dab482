/** Consents: one per end user and institution holding data, and more for the rest of the team. */
import { addDays, timestamp } from "../dates.js";
import type { Prng } from "../prng.js";
import type { IdMaker } from "./ids.js";
import type { Consent, DataSet, EndUser } from "./model.js";
import { BANKS } from "./reference.js";

const BANKING_PERMISSIONS = [
  "bank:accounts.basic:read",
  "bank:accounts.detail:read",
  "bank:transactions:read",
  "bank:regular_payments:read",
  "bank:payees:read",
  "common:customer.basic:read",
];
const ENERGY_PERMISSIONS = [
  "energy:accounts.basic:read",
  "energy:accounts.concessions:read",
  "energy:billing:read",
  "energy:electricity.servicepoints.basic:read",
  "energy:electricity.der:read",
  "common:customer.basic:read",
];

function makeConsent(
  data: DataSet,
  rng: Prng,
  ids: IdMaker,
  endUser: EndUser,
  institutionId: string,
  active = true,
): Consent {
  const created = addDays(data.referenceDate, -rng.int(740, 760));
  const consent: Consent = {
    id: ids.make("cns"),
    arrangementId: ids.make("arr", 12),
    endUserId: endUser.id,
    institutionId,
    active,
    status: active ? "ACTIVE" : rng.chance(0.5) ? "EXPIRED" : "REVOKED",
    createdAt: timestamp(created, rng.int(480, 1200)),
    expiresAt: timestamp(addDays(data.referenceDate, active ? rng.int(30, 300) : -rng.int(5, 60)), 0),
    revokedAt: null,
    permissions:
      institutionId.startsWith("inst_") && BANKS.some((b) => b.id === institutionId)
        ? BANKING_PERMISSIONS
        : ENERGY_PERMISSIONS,
    sharingDurationDays: 365,
  };
  if (consent.status === "REVOKED") {
    // Revoked before its planned expiry, which may still lie ahead.
    consent.expiresAt = timestamp(addDays(data.referenceDate, rng.int(30, 200)), 0);
    consent.revokedAt = timestamp(addDays(data.referenceDate, -rng.int(5, 60)), 600);
  }
  data.consents.push(consent);
  return consent;
}

export function consentFor(
  data: DataSet,
  rng: Prng,
  ids: IdMaker,
  endUser: EndUser,
  institutionId: string,
): Consent {
  return (
    data.consents.find((c) => c.endUserId === endUser.id && c.institutionId === institutionId && c.active) ??
    makeConsent(data, rng, ids, endUser, institutionId)
  );
}

export function addOtherConsents(data: DataSet, rng: Prng, ids: IdMaker): void {
  for (const endUser of data.endUsers.filter((u) => !u.hasData)) {
    makeConsent(data, rng, ids, endUser, rng.pick(BANKS).id, rng.chance(0.6));
  }
  const [person] = data.endUsers;
  makeConsent(data, rng, ids, person!, "inst_bendigo", false);
}
