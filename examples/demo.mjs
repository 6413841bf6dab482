// The sandbox demo: start @cdas/mock-server, then walk it with @cdas/sdk in each API version.
import { startMockServer } from "@cdas/mock-server";
import { createSdk, isCdasError } from "@cdas/sdk";

const money = new Intl.NumberFormat("en-AU", { style: "currency", currency: "AUD" });

// The sandbox signs its certificate with a CA made at start; sdkOptions carries a fetch that trusts it.
const sandbox = await startMockServer();
console.log(`CDAS sandbox on ${sandbox.url} (data up to ${sandbox.referenceDate})\n`);

try {
  // Every version the sandbox serves (the registry of its bundles, @cdas/spec/versions.json).
  for (const version of sandbox.versions) await tour(version);
} catch (error) {
  console.error(isCdasError(error) ? `SDK error (${error.code}): ${error.message}` : error);
  process.exitCode = 1;
} finally {
  await sandbox.close();
}

async function tour(version) {
  const sdk = createSdk({
    version,
    ...sandbox.sdkOptions,
    userAgent: "cdas-demo/1.0",
  });

  // Institutions (client_id is filled in by the SDK).
  const institutions = await sdk.paginate("/v1/institutions").toArray();
  const banks = institutions.filter((institution) => institution.industry === "banking");
  const degraded = institutions.filter(
    (institution) => institution.status?.connections?.status === "DEGRADED",
  );

  // The end user with banking accounts (the sandbox has twelve users, two of them with data).
  const endUsers = await sdk.paginate("/v1/end-users", {}, { pageSize: 50 }).toArray();
  let endUser;
  let accounts = [];
  for (const candidate of endUsers) {
    const query = { params: { query: { end_user_id: candidate.id } } };
    accounts = await sdk.paginate("/v1/accounts", query).toArray();
    if (accounts.length > 0) {
      endUser = candidate;
      break;
    }
  }
  if (!endUser) throw new Error("no end user with accounts in the sandbox");

  // An auth session for that end user at the first bank.
  const { data: session, error } = await sdk.client.POST("/v1/auth/session", {
    body: {
      end_user_id: endUser.id,
      institution_id: banks[0].id,
      redirect_uri: "https://app.example.com/consent/done",
      cancel_uri: "https://app.example.com/consent/cancel",
    },
  });
  if (error) throw new Error(`auth session refused: ${JSON.stringify(error)}`);

  // Every transaction of one account, page by page (from the first day of the data to today).
  const account =
    accounts.find((candidate) => candidate.product_category === "TRANS_AND_SAVINGS_ACCOUNTS") ?? accounts[0];
  const walk = sdk.paginate(
    "/v1/transactions",
    {
      params: {
        query: {
          end_user_id: endUser.id,
          account_id: account.id,
          from_date: "2000-01-01",
          to_date: sandbox.today,
        },
      },
    },
    { pageSize: 100 },
  );
  let pages = 0;
  let count = 0;
  let credits = 0;
  let debits = 0;
  let oldest = "";
  let newest = "";
  for await (const page of walk.pages()) {
    pages++;
    for (const transaction of page.items) {
      count++;
      if (transaction.amount >= 0) credits += transaction.amount;
      else debits += transaction.amount;
      newest ||= transaction.posted_date;
      oldest = transaction.posted_date;
    }
  }

  // Consents: a bare array in v1 and v2, a paged envelope with camelCase fields in v3.
  const consentPages = [];
  for await (const page of sdk.paginate("/v1/consent", {}, { pageSize: 10 }).pages()) consentPages.push(page);
  const consents = consentPages.flatMap((page) => page.items);
  const consentFields = Object.keys(consents[0] ?? {})
    .slice(0, 3)
    .join(", ");

  console.log(`── ${version} ──────────────────────────────────────────────`);
  console.log(
    `  institutions  ${institutions.length} (${banks.length} banks, ${institutions.length - banks.length} energy retailers; degraded: ${degraded.map((i) => i.name).join(", ") || "none"})`,
  );
  console.log(`  auth session  ${session.session_id} → ${session.auth_url}`);
  console.log(`  end user      ${endUser.name} (${endUser.id}): ${accounts.length} accounts`);
  for (const item of accounts.slice(0, 4)) {
    console.log(`                - ${item.name} [${item.product_category}] ${item.open_status}`);
  }
  if (accounts.length > 4) console.log(`                - … and ${accounts.length - 4} more`);
  console.log(
    `  consents      ${consents.length} in ${consentPages.length} page(s); fields ${consentFields}, …`,
  );
  console.log(`  transactions  ${count} on "${account.name}" in ${pages} pages, ${oldest} to ${newest}`);
  console.log(
    `                in ${money.format(credits)}, out ${money.format(-debits)}, net ${money.format(credits + debits)}\n`,
  );
}
