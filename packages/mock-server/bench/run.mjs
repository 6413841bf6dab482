// Benchmark (not a test): a paged transactions read with validation on, against Prism's mock of the
// same bundle, in one run on loopback; then resident memory of the sandbox before and after a load.
// Figures are reported as ratios against Prism measured in this same run. Prism serves plain HTTP
// only, so the goal (ten times Prism's rate) is read on the sandbox over HTTP; its default, HTTPS, is
// measured too. A bare Node server sending a fixed body of the same size, over each transport, gives
// the ceiling of Node's HTTP stack on this machine, to which the sandbox's rate is also compared.
//
//   BENCH_DURATION        seconds of each throughput run (default 5)
//   BENCH_ROUNDS          interleaved rounds over the targets; figures are medians (default 3)
//   BENCH_SOAK_DURATION   seconds of the memory load (default 60, the full minute)
//   BENCH_CONNECTIONS     concurrent connections (default 10)
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { Agent, request } from "undici";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const duration = Number(process.env.BENCH_DURATION ?? 5);
const roundCount = Number(process.env.BENCH_ROUNDS ?? 3);
const soakDuration = Number(process.env.BENCH_SOAK_DURATION ?? 60);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const bundlePath = require.resolve("@cdas/spec/v2.json");
const prismBin = join(here, "..", "node_modules", ".bin", "prism");

/** Starts a child process and resolves with its first JSON line on stdout (or a line matching `ready`). */
function startChild(command, args, ready) {
  const child = spawn(command, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODE_ENV: "production" },
  });
  return new Promise((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(
      () => reject(new Error(`${command} did not start: ${buffered.slice(-500)}`)),
      60_000,
    );
    const onData = (chunk) => {
      buffered += chunk.toString();
      const line = buffered.split("\n").find((l) => ready(l));
      if (line !== undefined) {
        clearTimeout(timer);
        child.stdout.off("data", onData);
        child.stdout.resume();
        child.stderr.resume();
        resolve({ child, line });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk) => {
      buffered += chunk.toString();
    });
    child.once("exit", (code) =>
      reject(new Error(`${command} exited with ${code}: ${buffered.slice(-500)}`)),
    );
  });
}

/** A port nothing listens on right now (Prism takes a fixed port). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function residentMemoryMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

function run(label, options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections, pipelining: 1, ...options }, (error, result) => {
      if (error) return reject(error);
      const ok = result["2xx"];
      const bad = result.non2xx + result.errors + result.timeouts;
      if (bad > 0 || ok === 0) return reject(new Error(`${label}: ${bad} failed requests (${ok} ok)`));
      resolve({
        label,
        requestsPerSecond: result.requests.average,
        p99Ms: result.latency.p99,
        p50Ms: result.latency.p50,
        requests: ok,
        bytesPerResponse: Math.round(result.throughput.total / Math.max(1, result.requests.total)),
      });
    });
  });
}

async function main() {
  // The sandbox, in its own process, over HTTPS with request validation (as shipped).
  const serveScript = join(here, "serve.mjs");
  const { child: mock, line } = await startChild(process.execPath, [serveScript], (l) => l.startsWith("{"));
  const sandbox = JSON.parse(line);
  const { child: plainMock, line: plainLine } = await startChild(
    process.execPath,
    [serveScript, "--plain"],
    (l) => l.startsWith("{"),
  );
  const plainSandbox = JSON.parse(plainLine);
  const prismPort = await freePort();
  const { child: prism } = await startChild(
    prismBin,
    ["mock", bundlePath, "-p", String(prismPort), "-h", "127.0.0.1"],
    (l) => /Prism is listening/.test(l),
  );

  // Prism answers with the bundle's example page (4 transactions), so the comparison reads pages of
  // 4 from both; a page of 25 from the sandbox is measured too.
  const pathFor = (limit) =>
    `/v1/transactions?end_user_id=${sandbox.endUserId}&from_date=2024-07-01&limit=${limit}&offset=50`;
  const path = pathFor(4);
  const headers = (token) => ({
    authorization: `Bearer ${token}`,
    "x-platform-version": "v2",
    accept: "application/json",
  });
  const children = [mock, plainMock, prism];
  try {
    // The bare servers send a body as long as the sandbox's answer to the measured request.
    const dispatcher = new Agent({ connect: { ca: sandbox.ca } });
    const sample = await request(`${sandbox.url}${path}`, { dispatcher, headers: headers(sandbox.token) });
    const bodyBytes = (await sample.body.arrayBuffer()).byteLength;
    await dispatcher.close();
    if (sample.statusCode !== 200) throw new Error(`sandbox answered ${sample.statusCode} to ${path}`);
    const bareScript = join(here, "bare.mjs");
    const bareArgs = (...flags) => [bareScript, "--bytes", String(bodyBytes), ...flags];
    const { child: bareHttps, line: bareHttpsLine } = await startChild(process.execPath, bareArgs(), (l) =>
      l.startsWith("{"),
    );
    children.push(bareHttps);
    const { child: barePlain, line: barePlainLine } = await startChild(
      process.execPath,
      bareArgs("--plain"),
      (l) => l.startsWith("{"),
    );
    children.push(barePlain);
    const bare = { https: JSON.parse(bareHttpsLine), http: JSON.parse(barePlainLine) };

    const https = { headers: headers(sandbox.token), tlsOptions: { ca: sandbox.ca } };
    const targets = [
      { label: "cdas-mock HTTPS", url: `${sandbox.url}${path}`, ...https },
      { label: "cdas-mock HTTP", url: `${plainSandbox.url}${path}`, headers: headers(plainSandbox.token) },
      { label: "prism HTTP", url: `http://127.0.0.1:${prismPort}${path}`, headers: headers("bench-token") },
      { label: "cdas-mock HTTPS 25", url: `${sandbox.url}${pathFor(25)}`, ...https },
      {
        label: "bare node HTTPS",
        url: `${bare.https.url}${path}`,
        headers: headers("x"),
        tlsOptions: { ca: bare.https.ca },
      },
      { label: "bare node HTTP", url: `${bare.http.url}${path}`, headers: headers("x") },
    ];
    // Targets run in interleaved rounds and each figure is the median over rounds, so that a burst of
    // other load on the machine does not land on one target only.
    for (const target of targets) await run(`${target.label} warm-up`, { ...target, duration: 2 });
    const rounds = new Map(targets.map((target) => [target.label, []]));
    for (let round = 0; round < roundCount; round++) {
      for (const target of targets)
        rounds.get(target.label).push(await run(target.label, { ...target, duration }));
    }
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const results = targets.map((target) => {
      const runs = rounds.get(target.label);
      return {
        label: target.label,
        requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
        p99Ms: median(runs.map((r) => r.p99Ms)),
        p50Ms: median(runs.map((r) => r.p50Ms)),
        bytesPerResponse: runs[0].bytesPerResponse,
        rounds: runs.map((r) => Math.round(r.requestsPerSecond)),
      };
    });
    for (const result of results) {
      process.stdout.write(
        `${result.label.padEnd(20)} ${result.requestsPerSecond.toFixed(0).padStart(8)} req/s   p99 ${result.p99Ms} ms   ${result.bytesPerResponse} B/response   (rounds: ${result.rounds.join(", ")})\n`,
      );
    }
    const byLabel = (label) => results.find((r) => r.label === label);
    const prismResult = byLabel("prism HTTP");
    const ceilings = { HTTPS: byLabel("bare node HTTPS"), HTTP: byLabel("bare node HTTP") };
    const ratios = results
      .filter((r) => r.label.startsWith("cdas-mock"))
      .map((r) => {
        // The bare servers send the page-of-4 body; the page of 25 has no ceiling of its size.
        const ceiling = r.label.endsWith(" 25") ? undefined : ceilings[r.label.split(" ")[1]];
        return {
          label: r.label,
          throughputVsPrism: r.requestsPerSecond / prismResult.requestsPerSecond,
          p99VsPrism: prismResult.p99Ms > 0 ? r.p99Ms / prismResult.p99Ms : null,
          throughputVsBareNode: ceiling ? r.requestsPerSecond / ceiling.requestsPerSecond : null,
        };
      });
    for (const ratio of ratios) {
      process.stdout.write(
        `${ratio.label}: ${ratio.throughputVsPrism.toFixed(1)}x Prism's requests/s, p99 ${ratio.p99VsPrism?.toFixed(2) ?? "n/a"}x Prism's${ratio.throughputVsBareNode === null ? "" : `, ${(100 * ratio.throughputVsBareNode).toFixed(0)}% of a bare Node server's rate`}\n`,
      );
    }
    const goal = ratios.find((r) => r.label === "cdas-mock HTTP");
    process.stdout.write(
      `goal, same transport as Prism (HTTP): ${goal.throughputVsPrism.toFixed(1)}x Prism's rate (10x asked): ${goal.throughputVsPrism >= 10 ? "met" : "NOT met"}\n`,
    );

    // Resident memory of the HTTPS sandbox before and after a sustained load, sampled every 5 s during
    // it: growth between the first sample and the last, not the jump to a warm working set, shows a leak.
    const before = residentMemoryMb(mock.pid);
    const samples = [];
    const sampler = setInterval(() => samples.push(residentMemoryMb(mock.pid)), 5000);
    const soak = await run("memory load", { ...targets[0], duration: soakDuration }).finally(() =>
      clearInterval(sampler),
    );
    await sleep(1000);
    const after = residentMemoryMb(mock.pid);
    // The working set is reached within the first seconds (when varies); growth is read over the second half.
    const settled = samples[Math.floor(samples.length / 2)] ?? after;
    const lastSample = samples.at(-1) ?? after;
    process.stdout.write(
      `memory: RSS ${before.toFixed(1)} MB before, ${after.toFixed(1)} MB after ${soakDuration}s of load (${soak.requests} requests); ratio ${(after / before).toFixed(2)}\n` +
        `memory during the load (every 5 s): ${samples.map((mb) => mb.toFixed(1)).join(", ")} MB; growth over the second half ${(lastSample - settled).toFixed(1)} MB\n`,
    );

    const report = {
      date: new Date().toISOString(),
      node: process.version,
      path,
      durationSeconds: duration,
      rounds: roundCount,
      connections,
      results,
      ratios,
      memory: {
        rssBeforeMb: before,
        rssAfterMb: after,
        ratio: after / before,
        loadSeconds: soakDuration,
        loadRequests: soak.requests,
        samplesMb: samples,
      },
    };
    mkdirSync(join(here, "..", "reports"), { recursive: true });
    writeFileSync(join(here, "..", "reports", "bench.json"), `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write("report: reports/bench.json\n");
  } finally {
    for (const child of children) child.kill("SIGTERM");
  }
}

main().catch((error) => {
  process.stderr.write(`bench: ${error.stack ?? error}\n`);
  process.exit(1);
});
