// Code samples of every operation, generated from a bundle (never written per operation): a curl line
// that runs against the sandbox (`cdas-mock`) as shown, the call with @cdas/sdk, and the bare typed
// client. They go into the copy of the bundle that Redoc renders (`x-codeSamples`), not into dist/vN.json.
import { exampleRequest } from "../../openapi/index.js";
import { listOperations } from "./openapi-walk.mjs";

/**
 * The sandbox as `cdas-mock` starts it with no options: its address, where it writes its CA, and the
 * credentials derived from seed 1 (packages/mock-server/README.md). The samples test starts the
 * sandbox and fails when these drift from what it really uses.
 */
export const SANDBOX = {
  url: "https://127.0.0.1:4010",
  caFile: "/tmp/cdas-mock/ca-4010.pem",
  clientId: "cli_9f8db840006d0462",
  clientSecret: "sk_sandbox_4be27a1a944652f4b5b31ce679cd79b4",
};

const JSON_MEDIA = "application/json; charset=UTF-8";

/** The paging parameters: the SDK sample's walk leaves them to the SDK. */
const PAGING = new Set(["limit", "offset", "page[size]", "page[after]"]);

/**
 * The arguments a sample sends: the request that answers the first response example the reference
 * shows (`exampleRequest` of @cdas/spec/openapi, the one choice the sandbox's served-examples and
 * live-examples tests send too), so that the sample, run against the sandbox, serves what that
 * example shows. No header parameters: the only one is X-Platform-Version, which the curl line sends
 * and the typed clients send themselves (their types do not offer it).
 */
export function sampleArguments(doc, item, operation) {
  const { path, query, body } = exampleRequest(doc, item, operation);
  return { path, query, body };
}

/** A bearer is sent when the operation accepts one (the institutions list accepts it or none). */
function needsBearer(doc, operation) {
  const security = operation.security ?? doc.security ?? [];
  return security.some((requirement) => Object.keys(requirement).length > 0);
}

function requestUrl(path, args) {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(String(args.path[name])));
  const query = Object.entries(args.query)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
    .join("&");
  return `${SANDBOX.url}${filled}${query ? `?${query}` : ""}`;
}

const shellQuote = (text) => `'${String(text).replaceAll("'", "'\\''")}'`;
const TOKEN_BODY = JSON.stringify({ client_id: SANDBOX.clientId, client_secret: SANDBOX.clientSecret });

/** The curl sample: a token from the sandbox (when the operation needs one), then the call. */
export function curlSample(doc, version, { method, path, item, operation }) {
  const args = sampleArguments(doc, item, operation);
  const isTokenCall = path === "/v1/token";
  // Short lines: Redoc's sample panel is narrow, and a long line hides its end.
  const lines = [
    "# Sandbox: cdas-mock of @cdas/mock-server (not on npm yet; in a clone of",
    "# the repository: node packages/mock-server/bin/cdas-mock.js). It listens on",
    `# ${SANDBOX.url} and writes its CA to ${SANDBOX.caFile}.`,
  ];
  if (needsBearer(doc, operation)) {
    lines.push(
      "# jq takes the token out of either form of the token response",
      `TOKEN=$(curl -s --cacert ${SANDBOX.caFile} -X POST ${SANDBOX.url}/v1/token \\`,
      `  -H ${shellQuote(`accept: ${JSON_MEDIA}`)} \\`,
      `  -H ${shellQuote(`content-type: ${JSON_MEDIA}`)} \\`,
      `  -d ${shellQuote(TOKEN_BODY)} \\`,
      "  | jq -r '.access_token // .token')",
    );
  }
  const url = requestUrl(path, args);
  // -g: curl would read the brackets of `page[size]` as a pattern of addresses.
  const globoff = /[[\]]/.test(url) ? " -g" : "";
  const call = [`curl -s${globoff} --cacert ${SANDBOX.caFile} -X ${method.toUpperCase()}`, shellQuote(url)];
  // The headers the interface asks of every request.
  call.push(
    `-H ${shellQuote(`x-platform-version: ${version}`)}`,
    `-H ${shellQuote(`accept: ${JSON_MEDIA}`)}`,
  );
  if (needsBearer(doc, operation)) call.push('-H "authorization: Bearer $TOKEN"');
  const body = isTokenCall ? TOKEN_BODY : args.body === undefined ? undefined : JSON.stringify(args.body);
  if (body !== undefined)
    call.push(`-H ${shellQuote(`content-type: ${JSON_MEDIA}`)}`, `-d ${shellQuote(body)}`);
  lines.push(call.join(" \\\n  "));
  return lines.join("\n");
}

/**
 * `{ params: { query: {...} }, body: ... }` as TypeScript source, `undefined` when there is nothing to
 * pass. `expressions` gives the source of a parameter or a top-level body member instead of its value
 * (`sdk.clientId`, a secret read from the environment).
 */
function initSource(args, { expressions = {} } = {}) {
  const sourceOf = (name, value) =>
    Object.hasOwn(expressions, name) ? expressions[name] : JSON.stringify(value, null, 2);
  const sections = [];
  for (const section of ["path", "query"]) {
    const entries = Object.entries(args[section]).map(([name, value]) => {
      const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
      return `${key}: ${sourceOf(name, value)}`;
    });
    if (entries.length) sections.push(`${section}: { ${entries.join(", ")} }`);
  }
  const parts = [];
  if (sections.length) parts.push(`params: { ${sections.join(", ")} }`);
  if (args.body !== undefined)
    parts.push(`body: ${bodySource(args.body, sourceOf).replaceAll("\n", "\n  ")}`);
  return parts.length ? `{\n  ${parts.join(",\n  ")},\n}` : undefined;
}

/** A body as JSON.stringify lays it out, each top-level member's value from `sourceOf`. */
function bodySource(body, sourceOf) {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return JSON.stringify(body, null, 2);
  const members = Object.entries(body).map(
    ([name, value]) => `  ${JSON.stringify(name)}: ${sourceOf(name, value).replaceAll("\n", "\n  ")}`,
  );
  return members.length ? `{\n${members.join(",\n")}\n}` : "{}";
}

/** Both TypeScript samples run against the sandbox, whose certificate Node trusts only when told. */
const SANDBOX_CA_NOTE = `// The sandbox's CA: run with NODE_EXTRA_CA_CERTS=${SANDBOX.caFile}`;
/** Said wherever a sample reads the secret: a run without it is refused (401). */
const SECRET_NOTE = `// and CDAS_CLIENT_SECRET=${SANDBOX.clientSecret} (the sandbox's; never write a real one in code)`;

const SDK_SETUP = (version) => `import { createSdk } from "@cdas/sdk";

${SANDBOX_CA_NOTE}
${SECRET_NOTE}
const sdk = createSdk({
  version: "${version}",
  baseUrl: "${SANDBOX.url}",
  clientId: "${SANDBOX.clientId}",
  clientSecret: process.env.CDAS_CLIENT_SECRET ?? "",
});
`;

/** The @cdas/sdk sample: `sdk.paginate` for a paged list, `sdk.client` for any other call. */
export function sdkSample(doc, version, { method, path, item, operation }) {
  if (path === "/v1/token") {
    return `${SDK_SETUP(version)}
// The SDK calls POST /v1/token itself, before the first call and again before the token expires.
const { data } = await sdk.client.GET("/v1/institutions", { params: { query: { client_id: sdk.clientId } } });
console.log(data);
`;
  }
  const args = sampleArguments(doc, item, operation);
  const paging = operation["x-cdas-pagination"]?.style;
  const walks = method === "get" && (paging === "offset" || paging === "cursor");
  // A walk reads every page: the example's page size is the curl line's, to show the example's page.
  if (walks) for (const name of PAGING) delete args.query[name];
  const init = initSource(args, { expressions: { client_id: "sdk.clientId" } });
  if (walks) {
    return `${SDK_SETUP(version)}
// Every item the call selects, across pages (${paging} paging, the server's page size unless
// paginate's third argument gives { pageSize }); the optional parameters left out keep the defaults
// the description gives.
for await (const item of sdk.paginate("${path}"${init ? `, ${init}` : ""})) {
  console.log(item);
}
`;
  }
  const verb = method.toUpperCase();
  return `${SDK_SETUP(version)}
const { data, error, response } = await sdk.client.${verb}("${path}"${init ? `, ${init}` : ""});
if (error) throw new Error(\`${verb} ${path}: \${response.status}\`);
console.log(data);
`;
}

/** The bare typed client: the caller brings the token (and renews it). */
export function clientSample(doc, version, { method, path, item, operation }) {
  const args = sampleArguments(doc, item, operation);
  // The token call's secret comes from the environment, as in the SDK sample (never written in code).
  if (path === "/v1/token") args.body = { client_id: SANDBOX.clientId, client_secret: "" };
  const init = initSource(args, { expressions: { client_secret: 'process.env.CDAS_CLIENT_SECRET ?? ""' } });
  const verb = method.toUpperCase();
  const bearer = needsBearer(doc, operation);
  const headers = bearer
    ? `\n  headers: { Authorization: \`Bearer \${process.env.CDAS_ACCESS_TOKEN ?? ""}\` },`
    : "";
  // Said with the CA, at the top: a run without the token (or, for the token call, the secret) answers 401.
  const tokenNote = bearer
    ? "\n// and CDAS_ACCESS_TOKEN=<the access_token of POST /v1/token>; renewing it when it expires is yours\n// to do (the SDK does it)"
    : path === "/v1/token"
      ? `\n${SECRET_NOTE}`
      : "";
  return `import { createClient } from "@cdas/client-${version}";

${SANDBOX_CA_NOTE}${tokenNote}
const client = createClient({
  baseUrl: "${SANDBOX.url}",${headers}
});
const { data, error, response } = await client.${verb}("${path}"${init ? `, ${init}` : ""});
// \`!response.ok\` too: an error answer without a body has \`error: undefined\`.
if (error || !response.ok) throw new Error(\`${verb} ${path}: \${response.status}\`);
console.log(data);
`;
}

/** The samples of every operation, in the order the reference offers them: Redoc's language and tab label, and the writer. */
const SAMPLE_KINDS = [
  { lang: "Shell", label: () => "curl", write: curlSample },
  { lang: "TypeScript", label: () => "@cdas/sdk", write: sdkSample },
  { lang: "TypeScript", label: (version) => `@cdas/client-${version}`, write: clientSample },
];

/** The three samples of one operation, in Redoc's `x-codeSamples` form. */
export function operationSamples(doc, version, entry) {
  return SAMPLE_KINDS.map(({ lang, label, write }) => ({
    lang,
    label: label(version),
    source: write(doc, version, entry),
  }));
}

/**
 * Redoc's `codeSamples.languages` option for a version's reference: Redoc shows only the samples whose
 * label (or language) that list names, and by default it names curl but no TypeScript.
 */
export function sampleLanguages(version) {
  return SAMPLE_KINDS.map(({ lang, label }) => ({ lang, label: label(version) }));
}

/** A copy of the bundle with `x-codeSamples` on every operation (the copy Redoc renders). */
export function withCodeSamples(doc, version) {
  const copy = structuredClone(doc);
  for (const { method, path } of listOperations(copy)) {
    const item = copy.paths[path];
    const operation = item[method];
    operation["x-codeSamples"] = operationSamples(copy, version, { method, path, item, operation });
  }
  return copy;
}
