/** Payees, scheduled payments and direct debits of an end user with banking data. */
import { addDays, addMonths, timestamp } from "../dates.js";
import type { Prng } from "../prng.js";
import type { IdMaker } from "./ids.js";
import type { Account, DataSet, EndUser, Payee, ScheduledPayment } from "./model.js";
import { BANKS } from "./reference.js";

export type Holder = "person" | "organisation";

const BILLERS: { name: string; code: string }[] = [
  { name: "AGL Energy", code: "1234" },
  { name: "Telstra", code: "23796" },
  { name: "Sydney Water", code: "14324" },
  { name: "Australian Taxation Office", code: "75556" },
  { name: "City of Sydney Rates", code: "39800" },
  { name: "Optus", code: "230334" },
];

/** The payees of an end user, in this order: domestic, billers, one international. */
export function makePayees(
  data: DataSet,
  endUser: EndUser,
  rng: Prng,
  ids: IdMaker,
  kind: Holder,
  bank: string,
): Payee[] {
  const payee: NewPayee = (fields) => ({
    id: ids.make(`pye_${bank}`),
    endUserId: endUser.id,
    accountName: null,
    accountNumber: null,
    bsb: null,
    billerCode: null,
    billerName: null,
    crn: null,
    payId: null,
    international: null,
    ...fields,
    createdDate: addDays(data.referenceDate, -rng.int(30, 700)),
  });
  const payees = [
    ...domesticPayees(rng, kind, payee),
    ...billerPayees(rng, kind, payee),
    internationalPayee(rng, kind, payee),
  ];
  data.payees.push(...payees);
  return payees;
}

/** A payee of the end user from the fields that differ by type (the others are null). */
type NewPayee = (fields: Pick<Payee, "nickname" | "type"> & Partial<Payee>) => Payee;

function domesticPayees(rng: Prng, kind: Holder, payee: NewPayee): Payee[] {
  const names =
    kind === "person"
      ? ["Mum and Dad", "Flatmate rent share", "Tennis club", "Emma (babysitting)"]
      : ["Timber Supplies Co", "Hardware Wholesale", "Casual staff pay", "Office landlord"];
  return names.map((name) => {
    const bank = rng.pick(BANKS);
    return payee({
      nickname: name,
      type: "DOMESTIC",
      accountName: name,
      accountNumber: `xxxx${rng.digits(4)}`,
      bsb: rng.pick(bank.bsbs),
      payId: rng.chance(0.3) ? `${rng.digits(2)}@payid.example.com.au` : null,
    });
  });
}

function billerPayees(rng: Prng, kind: Holder, payee: NewPayee): Payee[] {
  const billers =
    kind === "person" ? BILLERS.slice(0, 4) : [BILLERS[1]!, BILLERS[3]!, BILLERS[4]!, BILLERS[5]!];
  return billers.map((biller) =>
    payee({
      nickname: biller.name,
      type: "BILLER",
      billerCode: biller.code,
      billerName: biller.name,
      crn: rng.digits(10),
    }),
  );
}

function internationalPayee(rng: Prng, kind: Holder, payee: NewPayee): Payee {
  return payee({
    nickname: kind === "person" ? "Sister in Auckland" : "Supplier NZ Ltd",
    type: "INTERNATIONAL",
    accountName: kind === "person" ? "Sophie Walker" : "Supplier NZ Ltd",
    international: {
      country: "NZL",
      bic: "ANZBNZ22",
      accountNumber: `01-0102-${rng.digits(7)}-00`,
      bankName: "ANZ Bank New Zealand",
      bankAddress: "23-29 Albert Street, Auckland 1010",
    },
  });
}

export function makeScheduledPayments(
  data: DataSet,
  endUser: EndUser,
  accounts: Account[],
  payees: Payee[],
  rng: Prng,
  ids: IdMaker,
  bank: string,
): void {
  const frequencies: ScheduledPayment["frequency"][] = [
    "WEEKLY",
    "FORTNIGHTLY",
    "MONTHLY",
    "QUARTERLY",
    "ANNUALLY",
    "ONE_OFF",
  ];
  const source = accounts[0]!;
  payees.slice(0, 6).forEach((payee, index) => {
    const frequency = frequencies[index % frequencies.length]!;
    data.scheduledPayments.push({
      id: ids.make(`sp_${bank}`),
      endUserId: endUser.id,
      accountId: source.id,
      institutionId: source.institutionId,
      arrangementId: source.arrangementId,
      payeeId: payee.id,
      nickname: `${payee.nickname} ${frequency.toLowerCase().replace("_", "-")}`,
      payeeReference: payee.type === "BILLER" ? (payee.crn ?? "") : `From ${endUser.name.split(" ")[0]}`,
      payerReference: `${payee.nickname.slice(0, 12)}`,
      amountCents: rng.cents(25, 1500),
      frequency,
      nextPaymentDate: addDays(data.referenceDate, rng.int(1, 40)),
      finalPaymentDate:
        frequency === "ONE_OFF"
          ? null
          : rng.chance(0.5)
            ? addMonths(data.referenceDate, rng.int(6, 24))
            : null,
      status: "ACTIVE",
    });
  });
}

export function makeDirectDebits(
  data: DataSet,
  endUser: EndUser,
  accounts: Account[],
  rng: Prng,
  ids: IdMaker,
  kind: Holder,
): void {
  const entities =
    kind === "person"
      ? [
          {
            description: "MEDIBANK PRIVATE LTD",
            financialInstitution: "Commonwealth Bank",
            abn: "47 080 890 259",
          },
          { description: "NETFLIX AUSTRALIA", financialInstitution: "Westpac", abn: "58 152 464 012" },
          {
            description: "ANYTIME FITNESS",
            financialInstitution: "National Australia Bank",
            abn: "33 135 836 045",
          },
          { description: "AUSTRALIANSUPER", financialInstitution: "ANZ", abn: "65 714 394 898" },
        ]
      : [
          { description: "XERO AUSTRALIA PTY LTD", financialInstitution: "Westpac", abn: "98 126 434 541" },
          {
            description: "ALLIANZ AUSTRALIA INSURANCE",
            financialInstitution: "Commonwealth Bank",
            abn: "15 000 122 850",
          },
          { description: "TELSTRA CORPORATION", financialInstitution: "ANZ", abn: "33 051 775 556" },
        ];
  const debitAccounts = accounts.filter(
    (a) =>
      a.openStatus === "OPEN" &&
      (a.category === "TRANS_AND_SAVINGS_ACCOUNTS" || a.category === "CRED_AND_CHRG_CARDS"),
  );
  entities.forEach((entity, index) => {
    const account = debitAccounts[index % debitAccounts.length]!;
    data.directDebits.push({
      id: ids.make("ddr"),
      endUserId: endUser.id,
      accountId: account.id,
      institutionId: account.institutionId,
      arrangementId: account.arrangementId,
      entity: {
        ...entity,
        acn: entity.abn
          .replace(/ /g, "")
          .slice(2)
          .replace(/(\d{3})(\d{3})(\d{3})/, "$1 $2 $3"),
        arbn: "",
      },
      lastDebitCents: rng.cents(15, 400),
      lastDebitAt: timestamp(addDays(data.referenceDate, -rng.int(1, 30)), rng.int(0, 1439)),
    });
  });
}
