// Benchmarks of @cdas/sdk (not tests): figures are ratios against baselines measured in the same run.
//  1. Requests/s of sdk.client.GET vs bare openapi-fetch (@cdas/client-v2) vs plain fetch, one stubbed fetch.
//  2. Walking 100,000 transactions from a loopback HTTP server: sdk.paginate vs a hand-written fetch loop.
import { createServer } from "node:http";
import { performance } from "node:perf_hooks";
import { createClient } from "@cdas/client-v2";
import { createSdk } from "../dist/index.js";

const ROUNDS = 21; // walk rounds; each figure is a median (a walk is ~0.4 s and this machine is noisy)
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const format = (n) => Math.round(n).toLocaleString("en-US");

const only = process.env.BENCH_ONLY; // "client" or "walk" runs one part

// ---------------------------------------------------------------------------------------------
// 1. Per-request overhead with a stubbed fetch
// ---------------------------------------------------------------------------------------------
const page = JSON.stringify({
  data: Array.from({ length: 5 }, (_, i) => ({
    id: `acc_${i}`,
    name: "Everyday",
    product_category: "TRANS_AND_SAVINGS_ACCOUNTS",
    open_status: "OPEN",
  })),
  links: {},
});
const tokenBody = JSON.stringify({ access_token: "tok", token_type: "Bearer", expires_in: 3600 });
const jsonHeaders = { "content-type": "application/json" };
const stubFetch = (input) =>
  Promise.resolve(
    new Response(typeof input !== "string" && input.url.endsWith("/v1/token") ? tokenBody : page, {
      status: 200,
      headers: jsonHeaders,
    }),
  );

const baseUrl = "https://api.example.com";
const query = { params: { query: { end_user_id: "eu_1" } } };
const sdk = createSdk({ version: "v2", baseUrl, clientId: "id", clientSecret: "secret", fetch: stubFetch });
const bare = createClient({ baseUrl, fetch: stubFetch });
// The same client as a bare user of the real API must set it up: the bearer and accept headers that the
// interface requires on every data request (the token itself obtained elsewhere).
const bareWithHeaders = createClient({
  baseUrl,
  fetch: stubFetch,
  headers: { authorization: "Bearer tok", accept: "application/json; charset=UTF-8" },
});

const contenders = {
  "plain fetch": async () => {
    const response = await stubFetch(new Request(`${baseUrl}/v1/accounts?end_user_id=eu_1`));
    return response.json();
  },
  "bare openapi-fetch": () => bare.GET("/v1/accounts", query),
  "bare + API headers": () => bareWithHeaders.GET("/v1/accounts", query),
  "sdk.client.GET": () => sdk.client.GET("/v1/accounts", query),
};

/**
 * The contenders run in alternating batches of 20 calls, so that load on the machine hits all of them
 * alike; rates come from the total time of each, the ratio is the median of the per-batch ratios.
 */
async function benchClient() {
  const BATCHES = 1500;
  const total = Object.fromEntries(Object.keys(contenders).map((name) => [name, 0]));
  const ratios = [];
  const ratiosWithHeaders = [];
  for (let batch = 0; batch < BATCHES + 100; batch++) {
    const elapsed = {};
    const names = Object.keys(contenders);
    if (batch % 2) names.reverse();
    for (const name of names) {
      const call = contenders[name];
      const start = performance.now();
      for (let i = 0; i < 20; i++) await call();
      elapsed[name] = performance.now() - start;
    }
    if (batch < 100) continue; // warm-up
    for (const name of names) total[name] += elapsed[name];
    ratios.push(elapsed["bare openapi-fetch"] / elapsed["sdk.client.GET"]);
    ratiosWithHeaders.push(elapsed["bare + API headers"] / elapsed["sdk.client.GET"]);
  }
  console.log(`1. Requests per second with one stubbed fetch (${BATCHES} alternating batches of 20 calls)`);
  for (const [name, ms] of Object.entries(total)) {
    console.log(`   ${name.padEnd(20)} ${format((BATCHES * 20 * 1000) / ms)} req/s`);
  }
  console.log(
    `   sdk.client.GET / bare openapi-fetch = ${(median(ratios) * 100).toFixed(1)}% (median of batch ratios; goal >= 90%)`,
  );
  console.log(
    `   sdk.client.GET / bare + API headers = ${(median(ratiosWithHeaders) * 100).toFixed(1)}% (same request on the wire as the SDK's)`,
  );
  console.log(
    `   bare openapi-fetch / plain fetch    = ${((total["plain fetch"] / total["bare openapi-fetch"]) * 100).toFixed(1)}%`,
  );
}
if (only !== "walk") await benchClient();

// ---------------------------------------------------------------------------------------------
// 2. Walking 100,000 transactions over loopback HTTP
// ---------------------------------------------------------------------------------------------
const TOTAL = 100_000;
const PAGE_SIZE = 500;
const transactions = Array.from({ length: TOTAL }, (_, i) => ({
  id: `txn_${i}`,
  account_id: "acc_1",
  amount: -((i % 9000) / 100),
  currency: "AUD",
  description: "EFTPOS PURCHASE",
  merchant_name: null,
  category: "GROCERIES",
  status: "POSTED",
  type: "DEBIT",
  posted_date: "2026-01-01",
  execution_date: "2026-01-01",
  reference: `ref_${i}`,
}));
const pages = new Map();
for (let offset = 0; offset < TOTAL; offset += PAGE_SIZE) {
  const next =
    offset + PAGE_SIZE < TOTAL
      ? `/v1/transactions?end_user_id=eu_1&limit=${PAGE_SIZE}&offset=${offset + PAGE_SIZE}`
      : undefined;
  pages.set(
    offset,
    JSON.stringify({ data: transactions.slice(offset, offset + PAGE_SIZE), links: next ? { next } : {} }),
  );
}
const server = createServer((request, response) => {
  const url = new URL(request.url, "http://127.0.0.1");
  if (url.pathname === "/v1/token") {
    request.resume();
    response.writeHead(200, jsonHeaders).end(tokenBody);
    return;
  }
  const body = pages.get(Number(url.searchParams.get("offset") ?? 0)) ?? '{"data":[]}';
  response.writeHead(200, { ...jsonHeaders, "content-length": Buffer.byteLength(body) }).end(body);
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

/** An SDK for the loopback server (plain HTTP on loopback needs the opt-in). */
const loopbackSdk = () =>
  createSdk({
    version: "v2",
    baseUrl: origin,
    clientId: "id",
    clientSecret: "secret",
    allowInsecureLoopback: true,
  });

async function walkWithSdk() {
  let count = 0;
  for await (const transaction of loopbackSdk().paginate("/v1/transactions", query, {
    pageSize: PAGE_SIZE,
  })) {
    if (transaction.id) count++;
  }
  return count;
}

async function walkPagesWithSdk() {
  let count = 0;
  const pages = loopbackSdk().paginate("/v1/transactions", query, { pageSize: PAGE_SIZE }).pages();
  for await (const page of pages) {
    for (const transaction of page.items) if (transaction.id) count++;
  }
  return count;
}

async function walkByHand() {
  const headers = {
    accept: "application/json; charset=UTF-8",
    "content-type": "application/json; charset=UTF-8",
    "x-platform-version": "v2",
  };
  const tokenResponse = await fetch(`${origin}/v1/token`, {
    method: "POST",
    headers,
    body: JSON.stringify({ client_id: "id", client_secret: "secret" }),
  });
  const { access_token } = await tokenResponse.json();
  const auth = {
    accept: headers.accept,
    "x-platform-version": "v2",
    authorization: `Bearer ${access_token}`,
  };
  let count = 0;
  let url = `${origin}/v1/transactions?end_user_id=eu_1&limit=${PAGE_SIZE}`;
  while (url) {
    const response = await fetch(url, { headers: auth });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const body = await response.json();
    for (const transaction of body.data) if (transaction.id) count++;
    url = body.data.length > 0 && body.links?.next ? new URL(body.links.next, url).href : undefined;
  }
  return count;
}

async function time(walk) {
  const start = performance.now();
  const count = await walk();
  if (count !== TOTAL) throw new Error(`walked ${count} of ${TOTAL}`);
  return performance.now() - start;
}

async function benchWalk() {
  const walks = { hand: walkByHand, items: walkWithSdk, pages: walkPagesWithSdk };
  for (const walk of Object.values(walks)) await time(walk); // warm-up
  const durations = { hand: [], items: [], pages: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const names = Object.keys(walks);
    if (round % 2) names.reverse();
    for (const name of names) durations[name].push(await time(walks[name]));
  }
  const ratio = (name) => median(durations[name].map((ms, round) => ms / durations.hand[round]));
  console.log(
    `\n2. Walking ${format(TOTAL)} transactions, ${PAGE_SIZE} per page, loopback HTTP (${ROUNDS} rounds)`,
  );
  console.log(`   hand-written fetch loop          ${median(durations.hand).toFixed(0)} ms (median)`);
  console.log(`   for await (item of sdk.paginate) ${median(durations.items).toFixed(0)} ms`);
  console.log(`   for await (page of ….pages())    ${median(durations.pages).toFixed(0)} ms`);
  console.log(
    `   items / hand-written = ${(ratio("items") * 100).toFixed(1)}% of the time (median of round ratios; goal <= 110%)`,
  );
  console.log(`   pages / hand-written = ${(ratio("pages") * 100).toFixed(1)}%`);
}
if (only !== "client") await benchWalk();
server.close();
