/** The team's end users: a person and an organisation with data, and ten people without. */
import { addDays, timestamp } from "../dates.js";
import type { Prng } from "../prng.js";
import { DOCUMENTED_IDS, type IdMaker } from "./ids.js";
import type { Address, EndUser } from "./model.js";
import {
  FIRST_NAMES,
  LAST_NAMES,
  LOCALITIES,
  localityOfNmi,
  MIDDLE_NAMES,
  ORG_NAMES,
  STREETS,
} from "./reference.js";

export function makeAddress(rng: Prng, type: Address["type"], localityIndex?: number): Address {
  const locality =
    localityIndex === undefined ? rng.pick(LOCALITIES) : LOCALITIES[localityIndex % LOCALITIES.length]!;
  const [streetName, streetType] = rng.pick(STREETS);
  const address: Address = {
    type,
    streetNumber: rng.int(1, 240),
    streetName,
    streetType,
    suburb: locality.suburb,
    state: locality.state,
    postcode: locality.postcode,
    country: "AUS",
  };
  if (rng.chance(0.3)) address.flatUnit = String(rng.int(1, 24));
  return address;
}

export function streetLine(address: Address): string {
  if (address.line) return address.line;
  const street = `${address.streetNumber} ${address.streetName} ${titleCase(address.streetType)}`;
  return address.flatUnit ? `${address.flatUnit}/${street}` : street;
}

function titleCase(word: string): string {
  return word.charAt(0) + word.slice(1).toLowerCase();
}

/** An ABN with a valid checksum (weights 10,1,3,...,19 after subtracting 1 from the first digit). */
function makeAbn(rng: Prng): string {
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  for (;;) {
    const digits = [rng.int(1, 9), ...Array.from({ length: 10 }, () => rng.int(0, 9))];
    const sum = digits.reduce((acc, digit, i) => acc + (i === 0 ? digit - 1 : digit) * weights[i]!, 0);
    if (sum % 89 === 0) {
      const text = digits.join("");
      return `${text.slice(0, 2)} ${text.slice(2, 5)} ${text.slice(5, 8)} ${text.slice(8)}`;
    }
  }
}

function mobile(rng: Prng): string {
  return `+61 4${rng.digits(2)} ${rng.digits(3)} ${rng.digits(3)}`;
}

export function makeEndUsers(rng: Prng, ids: IdMaker, referenceDate: string): EndUser[] {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  // The person lives where the documents' first service point is (DOCUMENTED_IDS.nmi).
  const home = makeAddress(rng, "RESIDENTIAL", localityOfNmi(DOCUMENTED_IDS.nmi![0]!));
  const person: EndUser = {
    id: ids.make("eu"),
    type: "PERSON",
    name: `${first} ${last}`,
    email: `${`${first}.${last}`.toLowerCase().replace(/'/g, "")}@example.com.au`,
    phone: mobile(rng),
    phoneType: "MOBILE",
    createdAt: timestamp(addDays(referenceDate, -rng.int(800, 900)), rng.int(480, 1200)),
    firstName: first,
    middleNames: [rng.pick(MIDDLE_NAMES)],
    lastName: last,
    dateOfBirth: addDays(referenceDate, -rng.int(28 * 365, 52 * 365)),
    addresses: [home, { ...home, type: "MAILING" }],
    hasData: true,
  };
  const orgName = `${rng.pick(ORG_NAMES)} Pty Ltd`;
  const office = makeAddress(rng, "BUSINESS");
  const organisation: EndUser = {
    id: ids.make("eu"),
    type: "ORGANISATION",
    name: orgName,
    email: `accounts@${orgName
      .replace(/ Pty Ltd$/, "")
      .replace(/[^A-Za-z]/g, "")
      .toLowerCase()}.com.au`,
    phone: `+61 2 9${rng.digits(3)} ${rng.digits(4)}`,
    phoneType: "BUSINESS",
    createdAt: timestamp(addDays(referenceDate, -rng.int(760, 790)), rng.int(480, 1200)),
    organisationName: orgName,
    abn: makeAbn(rng),
    acn: `${rng.digits(3)} ${rng.digits(3)} ${rng.digits(3)}`,
    addresses: [office, { ...makeAddress(rng, "REGISTERED"), type: "REGISTERED" }],
    hasData: true,
  };
  // Further end users of the team, without consented data, so that the end-user list pages.
  const others: EndUser[] = Array.from({ length: 10 }, (_, i) => {
    const givenName = FIRST_NAMES[(i + 3) % FIRST_NAMES.length]!;
    const familyName = LAST_NAMES[(i * 5 + 1) % LAST_NAMES.length]!;
    return {
      id: ids.make("eu"),
      type: "PERSON",
      name: `${givenName} ${familyName}`,
      email: `${`${givenName}.${familyName}${i}`.toLowerCase().replace(/'/g, "")}@example.com.au`,
      phone: mobile(rng),
      phoneType: "MOBILE",
      createdAt: timestamp(addDays(referenceDate, -rng.int(10, 700)), rng.int(480, 1200)),
      firstName: givenName,
      middleNames: [],
      lastName: familyName,
      dateOfBirth: addDays(referenceDate, -rng.int(20 * 365, 70 * 365)),
      addresses: [makeAddress(rng, "RESIDENTIAL")],
      hasData: false,
    };
  });
  return [person, organisation, ...others];
}
