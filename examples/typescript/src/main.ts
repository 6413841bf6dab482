/**
 * Walks every end user's accounts and their recent transactions with @cdas/sdk, then shows how a
 * refused request reaches you. Credentials come from the environment:
 *   CDAS_BASE_URL, CDAS_CLIENT_ID, CDAS_CLIENT_SECRET.
 */
import { createSdk, isCdasApiError, isCdasError } from "@cdas/sdk";

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name} (see README.md)`);
  return value;
}

async function main(): Promise<void> {
  const sdk = createSdk({
    version: "v2", // the types and the X-Platform-Version header follow it
    baseUrl: required("CDAS_BASE_URL"),
    clientId: required("CDAS_CLIENT_ID"),
    clientSecret: required("CDAS_CLIENT_SECRET"),
  });

  let accountCount = 0;
  let transactionCount = 0;
  for await (const endUser of sdk.paginate("/v1/end-users", {}, { pageSize: 50 })) {
    if (!endUser.id) continue;
    const byUser = { params: { query: { end_user_id: endUser.id } } };
    for await (const account of sdk.paginate("/v1/accounts", byUser)) {
      accountCount += 1;
      if (!account.id) continue;
      // The last 90 days of the account (the API's default window), at most 100 transactions.
      const query = { end_user_id: endUser.id, account_id: account.id };
      const recent = await sdk
        .paginate("/v1/transactions", { params: { query } }, { maxItems: 100 })
        .toArray();
      transactionCount += recent.length;
      console.log(`${endUser.id}  ${account.id}  ${recent.length} recent transactions`);
    }
  }
  console.log(`accounts: ${accountCount}, transactions: ${transactionCount}`);

  // A refused request (a date that is not one): the API's answer arrives as a CdasApiError.
  try {
    const query = { end_user_id: "any", from_date: "yesterday" };
    await sdk.paginate("/v1/transactions", { params: { query } }).toArray();
  } catch (error) {
    if (!isCdasApiError(error)) throw error;
    console.log(`refused as expected: ${error.status} ${error.apiErrorName}: ${error.apiMessage}`);
  }
}

main().catch((error: unknown) => {
  // Every failure of the SDK is a CdasError with a code (network, timeout, api, ...) and its cause.
  console.error(isCdasError(error) ? `CDAS ${error.code} error: ${error.message}` : error);
  process.exitCode = 1;
});
