/** `cdas-mock`: starts the sandbox and prints how to call it. */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { readRegistry } from "@cdas/spec/registry";
import { bundleFolder } from "./bundle.js";
import { isCalendarDate } from "./dates.js";
import type { MockServer, MockServerOptions } from "./server.js";
import { SANDBOX_DEFAULTS, startMockServer, TOKEN_TTL_SECONDS_BY_FORM } from "./server.js";
import { authorityProblem, type CertificateAuthority, makeAuthority } from "./tls.js";

/**
 * Where the CA file goes by default: /tmp/cdas-mock wherever there is a /tmp, whatever TMPDIR says (on
 * macOS it names a folder of its own), because the reference's curl samples name that path.
 */
const CA_FOLDER = process.platform === "win32" ? join(tmpdir(), "cdas-mock") : "/tmp/cdas-mock";

// The versions, their order and the default come from the registry beside the bundles (versions.json).
const REGISTRY = readRegistry(bundleFolder());
// The one default of the CLI's own: a fixed port, so that the printed address and the docs' samples match
// (startMockServer picks a free one).
const DEFAULT_PORT = "4010";

const HELP = `Usage: cdas-mock [options]

Starts the CDAS sandbox: every version of the API (${REGISTRY.versions.join(", ")}), served over HTTPS from the bundles.

Options:
  --port <n>              Port (default ${DEFAULT_PORT}; 0 picks a free one)
  --host <addr>           Interface (default ${SANDBOX_DEFAULTS.host})
  --seed <value>          Seed of the data set and credentials (default ${SANDBOX_DEFAULTS.seed})
  --token-ttl <seconds>   Token lifetime (default ${SANDBOX_DEFAULTS.tokenTtlSeconds}; ${TOKEN_TTL_SECONDS_BY_FORM.token} with --token-form token)
  --token-form <form>     access_token or token (default ${SANDBOX_DEFAULTS.tokenForm})
  --product-form <form>   bare or data (default ${SANDBOX_DEFAULTS.productForm}): GET /v1/products as the Product or {data: [Product]}
  --default-version <v>   Version without X-Platform-Version (default ${REGISTRY.default})
  --reference-date <d>    Last day of the data set, YYYY-MM-DD (default ${SANDBOX_DEFAULTS.referenceDate})
  --today <d|now>         "Today" of the 90-day default window (default: the reference date)
  --ca-file <path>        Keep the CA there, its key beside it (<path>.key), for every later start
                          (default: a new CA each start, in /tmp/cdas-mock/ca-<port>.pem, or
                          ca-<port>-<host>.pem on another --host, removed on stop; on Windows,
                          in the temp folder)
  --plain-http            Serve plain HTTP instead of HTTPS (no certificate)
  --quiet                 Do not print a line per request
  -h, --help              This help
`;

const OPTIONS = {
  port: { type: "string", default: DEFAULT_PORT },
  host: { type: "string", default: SANDBOX_DEFAULTS.host },
  seed: { type: "string", default: String(SANDBOX_DEFAULTS.seed) },
  "token-ttl": { type: "string" },
  "token-form": { type: "string" },
  "product-form": { type: "string" },
  "default-version": { type: "string" },
  "reference-date": { type: "string" },
  today: { type: "string" },
  "ca-file": { type: "string" },
  "plain-http": { type: "boolean", default: false },
  quiet: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;
type CliValues = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>["values"];

/** The value of an option that takes one of a few words; its absence is left to the server's default. */
function oneOf<const T extends string>(
  name: string,
  value: string | undefined,
  choices: readonly T[],
): T | undefined {
  if (value === undefined || value === "") return undefined;
  if (!(choices as readonly string[]).includes(value))
    throw new Error(`--${name} must be ${choices.join(" or ")}`);
  return value as T;
}

/** startMockServer's options from the command line; throws naming a bad value. */
function serverOptions(values: CliValues): MockServerOptions {
  const defaultVersion = values["default-version"];
  if (defaultVersion && !REGISTRY.entries.has(defaultVersion))
    throw new Error(`--default-version must be one of ${REGISTRY.versions.join(", ")}`);
  if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535)
    throw new Error(`--port must be a whole number from 0 to 65535 (got ${JSON.stringify(values.port)})`);
  const tokenForm = oneOf("token-form", values["token-form"], ["access_token", "token"]);
  for (const name of ["reference-date", "today"] as const) {
    const value = values[name];
    if (value === undefined || isCalendarDate(value) || (name === "today" && value === "now")) continue;
    const now = name === "today" ? ', or "now"' : "";
    throw new Error(`--${name} must be a calendar date, YYYY-MM-DD${now} (got ${JSON.stringify(value)})`);
  }
  const productForm = oneOf("product-form", values["product-form"], ["bare", "data"]);
  return {
    port: Number(values.port),
    host: values.host,
    seed: /^\d+$/.test(values.seed) ? Number(values.seed) : values.seed,
    tls: !values["plain-http"],
    tokenTtlSeconds: values["token-ttl"] ? Number(values["token-ttl"]) : undefined,
    tokenForm,
    productForm,
    defaultVersion,
    referenceDate: values["reference-date"],
    today: values.today === "now" ? new Date() : values.today,
    onResponse: values.quiet
      ? undefined
      : (entry) =>
          process.stderr.write(
            `${entry.method} ${entry.path} ${entry.status} ${entry.version ?? "-"} ${entry.milliseconds.toFixed(1)}ms\n`,
          ),
  };
}

/**
 * The CA kept in `caFile`, and its key in `<caFile>.key`, when they can sign this start's certificate;
 * otherwise a new one, written there for later starts (the key readable by its owner alone).
 */
async function keptAuthority(caFile: string): Promise<{ authority: CertificateAuthority; note: string }> {
  const keyFile = `${caFile}.key`;
  let replaced = "";
  try {
    const kept = { ca: readFileSync(caFile, "utf8"), caKey: readFileSync(keyFile, "utf8") };
    const problem = authorityProblem(kept);
    if (problem === undefined)
      return { authority: kept, note: `${keyFile} (the CA kept by an earlier start)` };
    replaced = `; the one kept there was not used: ${problem}`;
  } catch {
    // none kept yet (or unreadable): a new one
  }
  const authority = await makeAuthority();
  mkdirSync(dirname(caFile), { recursive: true });
  rmSync(keyFile, { force: true }); // written anew, so that its mode is the one below
  writeFileSync(keyFile, authority.caKey, { mode: 0o600, flag: "wx" });
  writeFileSync(caFile, authority.ca);
  return { authority, note: `${keyFile} (a new CA, kept for later starts${replaced})` };
}

/**
 * Where the CA file goes without --ca-file: named by the port, and by the host too when it is not the
 * default one (two sandboxes may share a port on two hosts, 127.0.0.1 and ::1; one file would be
 * overwritten by the second, and removed when either stops).
 */
function defaultCaFile(host: string, url: string): string {
  // The host as given: 0.0.0.0 is served at 127.0.0.1, and may share a port with it where binding allows.
  const qualifier = host === SANDBOX_DEFAULTS.host ? "" : `-${host.replace(/[^\w.-]/g, "_")}`;
  return join(CA_FOLDER, `ca-${new URL(url).port}${qualifier}.pem`);
}

/**
 * Writes the CA file at the default place (HTTPS without --ca-file), then prints the address,
 * credentials and a curl line that works. Returns that CA file, to remove on exit.
 */
function announce(
  server: MockServer,
  host: string,
  caFile: string | undefined,
  keyNote: string | undefined,
): string | undefined {
  let caOption = "";
  let written: string | undefined;
  if (server.ca) {
    const file = caFile ?? defaultCaFile(host, server.url);
    if (caFile === undefined) {
      mkdirSync(CA_FOLDER, { recursive: true });
      writeFileSync(file, server.ca);
      written = file;
    }
    caOption = `--cacert ${file} `;
    process.stdout.write(`CA certificate: ${file}\n`);
    if (keyNote) process.stdout.write(`CA key:         ${keyNote}\n`);
  }
  const body = JSON.stringify({ client_id: server.clientId, client_secret: server.clientSecret });
  process.stdout.write(
    [
      `CDAS sandbox listening on ${server.url} (versions ${server.versions.join(", ")}; default ${server.defaultVersion})`,
      `Client id:     ${server.clientId}`,
      `Client secret: ${server.clientSecret}`,
      `Data: reference date ${server.referenceDate}, today ${server.today}`,
      "",
      "Get a token:",
      `curl ${caOption}-X POST ${server.url}/v1/token -H 'content-type: application/json; charset=UTF-8' -d '${body}'`,
      "",
    ].join("\n"),
  );
  return written;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: OPTIONS });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const options = serverOptions(values);
  const caFile = values["ca-file"] === undefined ? undefined : resolve(values["ca-file"]);
  const kept = options.tls && caFile !== undefined ? await keptAuthority(caFile) : undefined;
  if (kept) options.tls = kept.authority;
  const server = await startMockServer(options);
  let writtenCa: string | undefined;
  const stop = () => {
    try {
      if (writtenCa) rmSync(writtenCa, { force: true });
    } catch (error) {
      // Deno asks for read access to remove a file: a refusal must not keep the sandbox from closing.
      process.stderr.write(`cdas-mock: could not remove ${writtenCa}: ${(error as Error).message}\n`);
    }
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // Ctrl+C, a process manager, a closed terminal: each removes the CA file it wrote. Listened to before
  // the address is printed: a supervisor may stop the sandbox as soon as it reads it.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, stop);
  writtenCa = announce(server, values.host, caFile, kept?.note);
}

main().catch((error: unknown) => {
  process.stderr.write(`cdas-mock: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
