// Benchmarks of @cdas/sdk (not tests): every figure is a ratio against a baseline measured in the same run,
// over a real loopback keep-alive HTTP server (node:http) and the platform fetch.
//  1. Requests/s of sdk.client.GET vs bare openapi-fetch (its own createClient with the API's headers), and vs
//     bare openapi-fetch with only a signal, then only a deadline, then the least an SDK does, per call
//     (what those alone cost).
// 1b. The same against the sandbox (cdas-mock), a server doing a real server's work.
//  2. Walking 100,000 transactions: sdk.paginate vs a hand-written fetch loop, and bare openapi-fetch vs
//     sdk.client.GET in the same loop (the call's cost on large pages, apart from paginate's).
//  3. Lookahead: 5 ms of server latency and 5 ms of work per page, paginate with `prefetch` vs without.
//  4. The SDK's own code, minified and gzipped.
//  5. Memory under a hostile server: how far one call grows the process on a 1 GiB gzip bomb, sdk.client.GET
//     (default maxResponseBytes) vs bare openapi-fetch. Last, as the bare call leaves the process large.
// BENCH_ONLY=client|sandbox|walk|lookahead|size|memory runs one part.
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { createGzip } from "node:zlib";
import { browserBundleGzipBytes, ownCodeGzipBytes } from "@cdas/client-tooling/bundle-size";
import { startMockServer } from "@cdas/mock-server";
import createClient from "openapi-fetch";
import { createSdk, DEFAULTS } from "../dist/index.js";

const only = process.env.BENCH_ONLY;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const format = (n) => Math.round(n).toLocaleString("en-US");
const percent = (ratio) => `${(ratio * 100).toFixed(1)}%`;

const jsonHeaders = { "content-type": "application/json" };
const tokenBody = JSON.stringify({ access_token: "tok", token_type: "Bearer", expires_in: 3600 });
const query = { params: { query: { end_user_id: "eu_1" } } };

/** A loopback keep-alive server: the token call, and `answer(url)` for everything else. */
async function loopback(answer) {
  const server = createServer(async (request, response) => {
    const url = new URL(request.url, "http://127.0.0.1");
    request.resume();
    if (url.pathname === "/v1/token") return response.writeHead(200, jsonHeaders).end(tokenBody);
    const body = await answer(url);
    response.writeHead(200, { ...jsonHeaders, "content-length": Buffer.byteLength(body) }).end(body);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

const sdkFor = (origin) =>
  createSdk({
    version: "v2",
    baseUrl: origin,
    clientId: "id",
    clientSecret: "secret",
    allowInsecureLoopback: true,
  });

// ---------------------------------------------------------------------------------------------
// 1. sdk.client.GET vs bare openapi-fetch, requests per second
// ---------------------------------------------------------------------------------------------
async function benchClient() {
  const page = JSON.stringify({
    data: Array.from({ length: 5 }, (_, i) => ({ id: `acc_${i}`, name: "Everyday", open_status: "OPEN" })),
    links: {},
  });
  const server = await loopback(() => page);
  const sdk = sdkFor(server.origin);
  // A bare user of the API sends the same request: the bearer and accept headers the interface requires, and
  // the version header of the SDK's version (without it the console's pinned version answers).
  const headers = {
    authorization: "Bearer tok",
    accept: "application/json; charset=UTF-8",
    "x-platform-version": "v2",
  };
  const bare = createClient({ baseUrl: server.origin, headers });
  // What any client with a per-call deadline pays, whatever else it does: bare openapi-fetch whose fetch
  // passes a signal of the call's own (the bench's calls run one at a time, so a variable hands it over),
  // first a bare signal, then a deadline (the signal and a timer, ended when the call is over).
  let callSignal;
  const bareWithSignal = createClient({
    baseUrl: server.origin,
    headers,
    fetch: (request) => fetch(request, { signal: callSignal }),
  });
  const withSignal = (path, init) => {
    callSignal = new AbortController().signal;
    return bareWithSignal.GET(path, init);
  };
  const withDeadline = (path, init) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 30_000);
    callSignal = controller.signal;
    return bareWithSignal.GET(path, init).finally(() => clearTimeout(timer));
  };
  // The least any SDK built as issue 10 asks does per call, and nothing else: the deadline, the bearer set
  // on the request in openapi-fetch's fetch option, and a per-call fetch (so that a failure of
  // openapi-fetch's own body read can be typed and the deadline ended once the body is read).
  const { authorization, ...apiHeaders } = headers;
  const leastClient = createClient({ baseUrl: server.origin, headers: apiHeaders });
  const leastSdk = (path, init) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 30_000);
    const fetchWithin = (request) => {
      request.headers.set("authorization", authorization);
      return fetch(request, { signal: controller.signal, redirect: "manual" });
    };
    return leastClient.GET(path, { ...init, fetch: fetchWithin }).finally(() => clearTimeout(timer));
  };
  const contenders = {
    "bare openapi-fetch": () => bare.GET("/v1/accounts", query),
    "bare + a signal": () => withSignal("/v1/accounts", query),
    "bare + a deadline": () => withDeadline("/v1/accounts", query),
    "the least an SDK does": () => leastSdk("/v1/accounts", query),
    "sdk.client.GET": () => sdk.client.GET("/v1/accounts", query),
  };
  const BATCHES = 300;
  const elapsed = await alternatingBatches(contenders, BATCHES);
  const total = Object.fromEntries(
    Object.keys(contenders).map((name) => [name, elapsed.reduce((sum, batch) => sum + batch[name], 0)]),
  );
  const ratio = (slower, faster = "bare openapi-fetch") =>
    percent(median(elapsed.map((batch) => batch[faster] / batch[slower])));
  server.close();
  console.log(`1. Requests per second over loopback keep-alive HTTP (${BATCHES} alternating batches of 20)`);
  for (const [name, ms] of Object.entries(total)) {
    console.log(`   ${name.padEnd(22)} ${format((BATCHES * 20 * 1000) / ms)} req/s`);
  }
  console.log(
    `   sdk.client.GET / bare openapi-fetch = ${ratio("sdk.client.GET")} of the rate (median of batch ratios; goal >= 97%)`,
  );
  console.log(
    `   bare + a signal / bare openapi-fetch = ${ratio("bare + a signal")}: what passing fetch a signal of the call's own costs`,
  );
  console.log(
    `   bare + a deadline / bare openapi-fetch = ${ratio("bare + a deadline")}: what a per-call deadline alone costs, the floor of the first figure`,
  );
  console.log(
    `   the least an SDK does / bare openapi-fetch = ${ratio("the least an SDK does")}: a deadline, the bearer set per call and a per-call fetch, nothing else`,
  );
  console.log(
    `   sdk.client.GET / bare + a deadline = ${ratio("sdk.client.GET", "bare + a deadline")}: the rest of the SDK (bearer, retries, redirect and size checks, redaction, typed failures)`,
  );
}

/**
 * Runs each contender 20 calls at a time, in turn, the order reversed every other batch so that load on
 * the machine hits all alike; after `warmup` batches, returns each batch's milliseconds by contender.
 */
async function alternatingBatches(contenders, batches, warmup = 30) {
  const elapsed = [];
  for (let batch = 0; batch < batches + warmup; batch++) {
    const names = Object.keys(contenders);
    if (batch % 2) names.reverse();
    const times = {};
    for (const name of names) {
      const start = performance.now();
      for (let i = 0; i < 20; i++) {
        const { error } = await contenders[name]();
        if (error) throw new Error(`${name} failed: ${JSON.stringify(error)}`);
      }
      times[name] = performance.now() - start;
    }
    if (batch >= warmup) elapsed.push(times);
  }
  return elapsed;
}

// ---------------------------------------------------------------------------------------------
// 1b. The same against the sandbox: a server that does a real server's work
// ---------------------------------------------------------------------------------------------
async function benchAgainstSandbox() {
  const sandbox = await startMockServer();
  const sdk = createSdk({ version: "v2", ...sandbox.sdkOptions });
  const { clientId, clientSecret } = sandbox;
  const token = await sandbox
    .fetch(`${sandbox.url}/v1/token`, {
      method: "POST",
      headers: { "content-type": "application/json; charset=UTF-8" },
      body: JSON.stringify({ client_id: clientId, client_secret: clientSecret }),
    })
    .then((response) => response.json());
  const bare = createClient({
    baseUrl: sandbox.url,
    fetch: sandbox.fetch,
    headers: {
      authorization: `Bearer ${token.access_token}`,
      accept: "application/json; charset=UTF-8",
      "x-platform-version": "v2",
    },
  });
  const accounts = { params: { query: { end_user_id: "eu_2f9c81d4" } } };
  const BATCHES = 100;
  const elapsed = await alternatingBatches(
    {
      "bare openapi-fetch": () => bare.GET("/v1/accounts", accounts),
      "sdk.client.GET": () => sdk.client.GET("/v1/accounts", accounts),
    },
    BATCHES,
  );
  await sandbox.close();
  const perCall = (name) => (median(elapsed.map((batch) => batch[name])) * 1000) / 20;
  const ratio = median(elapsed.map((batch) => batch["bare openapi-fetch"] / batch["sdk.client.GET"]));
  console.log(
    `\n1b. The same against the sandbox (cdas-mock in this process, HTTPS, an end user's accounts; ${BATCHES} batches of 20)`,
  );
  console.log(
    `   bare openapi-fetch ${perCall("bare openapi-fetch").toFixed(0)} µs a call, sdk.client.GET ${perCall("sdk.client.GET").toFixed(0)} µs (medians)`,
  );
  console.log(
    `   sdk.client.GET / bare openapi-fetch = ${percent(ratio)} of the rate (not the goal's figure)`,
  );
}

// ---------------------------------------------------------------------------------------------
// 2. Walking 100,000 transactions
// ---------------------------------------------------------------------------------------------
const TOTAL = 100_000;
const PAGE_SIZE = 500;
const WALK_ROUNDS = 21; // each figure is a median: a walk is ~0.35 s, and its time varies from round to round with GC

function transactionPages(total, pageSize) {
  const pages = new Map();
  for (let offset = 0; offset < total; offset += pageSize) {
    const data = Array.from({ length: Math.min(pageSize, total - offset) }, (_, k) => {
      const i = offset + k;
      return {
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
      };
    });
    const next =
      offset + pageSize < total
        ? `/v1/transactions?end_user_id=eu_1&limit=${pageSize}&offset=${offset + pageSize}`
        : undefined;
    pages.set(offset, JSON.stringify({ data, links: next ? { next } : {} }));
  }
  return (url) => pages.get(Number(url.searchParams.get("offset") ?? 0)) ?? '{"data":[]}';
}

async function benchWalk() {
  const server = await loopback(transactionPages(TOTAL, PAGE_SIZE));
  const { origin } = server;
  /** The walk as a user of an openapi-fetch client writes it: each link's query sent as the next page's. */
  const loopOver = async (client) => {
    let count = 0;
    let page = { ...query.params.query, limit: PAGE_SIZE };
    while (page) {
      const { data, error } = await client.GET("/v1/transactions", { params: { query: page } });
      if (error) throw new Error(`HTTP error ${JSON.stringify(error)}`);
      for (const transaction of data.data) if (transaction.id) count++;
      const next = data.data.length > 0 ? data.links?.next : undefined;
      page = next ? Object.fromEntries(new URL(next, origin).searchParams) : undefined;
    }
    return count;
  };
  const walks = {
    async hand() {
      const headers = { accept: "application/json; charset=UTF-8", "x-platform-version": "v2" };
      const token = await fetch(`${origin}/v1/token`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json; charset=UTF-8" },
        body: JSON.stringify({ client_id: "id", client_secret: "secret" }),
      }).then((response) => response.json());
      const auth = { ...headers, authorization: `Bearer ${token.access_token}` };
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
    },
    // The same walk through bare openapi-fetch (on which the SDK is built), following each link's query:
    // what openapi-fetch alone costs over the hand-written loop, the floor of the SDK's figures.
    async bare() {
      const headers = { accept: "application/json; charset=UTF-8", "x-platform-version": "v2" };
      return loopOver(
        createClient({ baseUrl: origin, headers: { ...headers, authorization: "Bearer tok" } }),
      );
    },
    // The bare loop again, through sdk.client.GET: what the SDK's call costs on pages this size, apart
    // from what paginate adds (links checked, loops detected, pages cancellable).
    client: () => loopOver(sdkFor(origin).client),
    async items() {
      let count = 0;
      for await (const transaction of sdkFor(origin).paginate("/v1/transactions", query, {
        pageSize: PAGE_SIZE,
      })) {
        if (transaction.id) count++;
      }
      return count;
    },
    async pages() {
      let count = 0;
      for await (const page of sdkFor(origin)
        .paginate("/v1/transactions", query, { pageSize: PAGE_SIZE })
        .pages()) {
        for (const transaction of page.items) if (transaction.id) count++;
      }
      return count;
    },
  };
  const time = async (walk) => {
    const start = performance.now();
    const count = await walk();
    if (count !== TOTAL) throw new Error(`walked ${count} of ${TOTAL}`);
    return performance.now() - start;
  };
  for (const walk of Object.values(walks)) await time(walk); // warm-up
  const durations = Object.fromEntries(Object.keys(walks).map((name) => [name, []]));
  for (let round = 0; round < WALK_ROUNDS; round++) {
    const names = Object.keys(walks);
    if (round % 2) names.reverse();
    for (const name of names) durations[name].push(await time(walks[name]));
  }
  server.close();
  const ratio = (name) => median(durations[name].map((ms, round) => ms / durations.hand[round]));
  console.log(
    `\n2. Walking ${format(TOTAL)} transactions, ${PAGE_SIZE} per page, loopback HTTP (${WALK_ROUNDS} rounds)`,
  );
  console.log(`   hand-written fetch loop          ${median(durations.hand).toFixed(0)} ms (median)`);
  console.log(`   bare openapi-fetch loop          ${median(durations.bare).toFixed(0)} ms`);
  console.log(`   the same loop, sdk.client.GET    ${median(durations.client).toFixed(0)} ms`);
  console.log(`   for await (item of sdk.paginate) ${median(durations.items).toFixed(0)} ms`);
  console.log(`   for await (page of ….pages())    ${median(durations.pages).toFixed(0)} ms`);
  console.log(
    `   items / hand-written = ${percent(ratio("items"))} of the time (median of round ratios; goal <= 110%)`,
  );
  console.log(`   pages / hand-written = ${percent(ratio("pages"))}`);
  console.log(
    `   bare openapi-fetch / hand-written = ${percent(ratio("bare"))}: what openapi-fetch alone costs, the floor of the two above`,
  );
  console.log(
    `   sdk.client.GET loop / bare openapi-fetch loop = ${percent(median(durations.client.map((ms, round) => ms / durations.bare[round])))}: the SDK's call on pages this size; the rest of the two figures above is paginate's`,
  );
  console.log(
    "   (items pay one promise per item over pages: a for-await loop's own cost, which a hand-written loop over arrays does not have)",
  );
}

// ---------------------------------------------------------------------------------------------
// 3. Lookahead: 5 ms of latency per request, 5 ms of work per page
// ---------------------------------------------------------------------------------------------
async function benchLookahead() {
  const LATENCY_MS = 5;
  const WORK_MS = 5;
  const PAGES = 40;
  const ROUNDS = 7;
  const pageOf = transactionPages(PAGES * 100, 100);
  const server = await loopback(async (url) => {
    await sleep(LATENCY_MS);
    return pageOf(url);
  });
  const walk = async (prefetch) => {
    const start = performance.now();
    let pages = 0;
    for await (const page of sdkFor(server.origin)
      .paginate("/v1/transactions", query, { pageSize: 100, prefetch })
      .pages()) {
      if (page.items.length > 0) pages++;
      await sleep(WORK_MS); // the consumer's work on the page
    }
    if (pages !== PAGES) throw new Error(`walked ${pages} of ${PAGES} pages`);
    return performance.now() - start;
  };
  await walk(false);
  await walk(true);
  const sequential = [];
  const lookahead = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2) lookahead.push(await walk(true));
    sequential.push(await walk(false));
    if (!(round % 2)) lookahead.push(await walk(true));
  }
  server.close();
  const ratio = median(lookahead.map((ms, round) => ms / sequential[round]));
  console.log(
    `\n3. Lookahead: ${PAGES} pages, ${LATENCY_MS} ms server latency and ${WORK_MS} ms work per page (${ROUNDS} rounds)`,
  );
  console.log(`   sequential walk              ${median(sequential).toFixed(0)} ms (median)`);
  console.log(`   walk with prefetch: true     ${median(lookahead).toFixed(0)} ms`);
  console.log(
    `   prefetch / sequential = ${percent(ratio)} of the time (median of round ratios; goal <= 60%)`,
  );
}

// ---------------------------------------------------------------------------------------------
// 5. Memory under a hostile server: a gzip bomb
// ---------------------------------------------------------------------------------------------
async function benchMemory() {
  const INFLATED = 1 << 30;
  // Zeros compress a thousandfold: 1 GiB inflated is about 1 MB on the wire.
  const megabyte = Buffer.alloc(1 << 20);
  const chunks = [];
  for await (const chunk of Readable.from(Array.from({ length: INFLATED >> 20 }, () => megabyte)).pipe(
    createGzip({ level: 1 }),
  ))
    chunks.push(chunk);
  const bomb = Buffer.concat(chunks);
  const server = createServer((request, response) => {
    request.resume();
    if (request.url === "/v1/token") return response.writeHead(200, jsonHeaders).end(tokenBody);
    response.writeHead(200, { ...jsonHeaders, "content-encoding": "gzip", "content-length": bomb.length });
    response.end(bomb);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  /** How far the process's memory (RSS) grew while `call` ran, sampled every 2 ms, and how the call ended. */
  const growth = async (call) => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 2);
    const outcome = await call().then(
      ({ error }) => (error ? "an error answer" : "read whole"),
      (error) => `${error.name}: ${String(error.message).slice(0, 120)}`,
    );
    await sleep(200);
    clearInterval(sampler);
    return { grewMib: (peak - before) / 2 ** 20, outcome };
  };
  const sdk = sdkFor(origin).withOptions({ maxRetries: 0 });
  const bare = createClient({ baseUrl: origin, headers: { authorization: "Bearer tok" } });
  const withSdk = await growth(() => sdk.client.GET("/v1/accounts", query));
  const withBare = await growth(() => bare.GET("/v1/accounts", query));
  server.close();
  const limitMib = DEFAULTS.maxResponseBytes / 2 ** 20;
  console.log(
    `\n5. Memory under a hostile server: a 1 GiB gzip bomb (${format(bomb.length / 1024)} KiB on the wire), one call`,
  );
  console.log(`   bare openapi-fetch   grew ${format(withBare.grewMib)} MiB (${withBare.outcome})`);
  console.log(`   sdk.client.GET       grew ${format(withSdk.grewMib)} MiB (${withSdk.outcome})`);
  console.log(
    `   sdk / bare = ${percent(withSdk.grewMib / withBare.grewMib)} of the growth; goal: at most maxResponseBytes (${limitMib} MiB by default) plus tens of MiB`,
  );
}

// ---------------------------------------------------------------------------------------------
// 4. Own code size
// ---------------------------------------------------------------------------------------------
async function benchSize() {
  const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
  const own = await ownCodeGzipBytes(packageDir);
  const all = await browserBundleGzipBytes(packageDir);
  console.log(
    `\n4. Size, minified and gzipped: own code ${format(own)} B; with openapi-fetch and the clients ${format(all)} B`,
  );
}

if (!only || only === "client") await benchClient();
if (!only || only === "sandbox") await benchAgainstSandbox();
if (!only || only === "walk") await benchWalk();
if (!only || only === "lookahead") await benchLookahead();
if (!only || only === "size") await benchSize();
if (only === "memory") await benchMemory();
// In a process of its own: memory the parts above have already taken would hide the call's growth.
else if (!only)
  execFileSync(process.execPath, [fileURLToPath(import.meta.url)], {
    env: { ...process.env, BENCH_ONLY: "memory" },
    stdio: "inherit",
  });
