// The version drill: in a temporary copy of the spec sources, the next version (v4 while v3 is the last),
// based on the last one and made of its info.yaml, one changed file and one registry entry, is built,
// served by the sandbox and typed by a generated client, with no other edit. The change: `page[size]`
// (shared by every cursor list) becomes required with a maximum of 100 instead of the last version's
// (1000 while its PageSize is shared/'s), in a copy of the file the last version takes it from: its
// own copy when it has one (its folder or an earlier version's of its lineage), else shared/'s.
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { readRegistry } from "../registry/index.js";
import { copyProblems, layersOf, versionCopies } from "../scripts/layers.mjs";
import { SPEC_DIR, typeCheck } from "./helpers";

const REPO = path.resolve(SPEC_DIR, "..");
// Built by the sandbox's own build (spec/turbo.json makes the spec tests wait for it).
const MOCK_SERVER = path.join(REPO, "packages", "mock-server", "dist", "index.js");
const GENERATE_CLIENT = path.join(REPO, "packages", "client-tooling", "bin", "generate-client.mjs");
const SCAFFOLD_CLIENT = path.join(REPO, "packages", "client-tooling", "bin", "scaffold-client.mjs");
const BIN = path.join(SPEC_DIR, "node_modules", ".bin");
/** The drill version: the next name after the registry's last version, based on it (v4 on v3 when v3 was last). */
const REGISTERED = readRegistry(SPEC_DIR);
const BASE = REGISTERED.versions.at(-1) as string;
const DRILL = `v${REGISTERED.versions.length + 1}`;
/** What a spec build reads; everything else (dist, .layers, reports, node_modules) is left behind. */
const SOURCES = [
  "versions.json",
  "redocly.yaml",
  "package.json",
  "plugins",
  "registry",
  "openapi",
  "scripts",
  "shared",
];

/** The file the drill changes, relative to a layer folder (shared/ or a version's). */
const PAGE_SIZE = path.join("components", "parameters", "PageSize.yaml");
/**
 * The file the drill's copy copies: the base version's tree takes PageSize from the last layer of its
 * lineage that has it (scripts/layers.mjs), its own or an earlier version's copy before shared/'s.
 */
const PAGE_SIZE_ORIGINAL = path.join(
  [...layersOf(BASE, SPEC_DIR, REGISTERED)]
    .reverse()
    .find((layer) => existsSync(path.join(SPEC_DIR, layer, PAGE_SIZE))) ?? "shared",
  PAGE_SIZE,
);
/** The base version's `page[size]`, as the drill finds it. */
const BASE_PAGE_SIZE = parse(readFileSync(path.join(SPEC_DIR, PAGE_SIZE_ORIGINAL), "utf8"));
const BASE_MAXIMUM: number = BASE_PAGE_SIZE.schema?.maximum;
/** The drill's change: required, 1 to 100; everything else as the base version has it. */
const DRILL_CHANGES = {
  "/required": true,
  "/description": `Cursor paging. Version ${DRILL.slice(1)} (a drill) requires it, at most 100.`,
  "/schema/minimum": 1,
  "/schema/maximum": 100,
} as const;

/**
 * The drill's PageSize.yaml: a copy of the base version's, the drill's changes made, and first lines
 * naming the file it copies and each place where the two now differ (scripts/layers.mjs checks them).
 */
function drillPageSize(): string {
  const copy = structuredClone(BASE_PAGE_SIZE);
  const places: string[] = [];
  for (const [place, value] of Object.entries(DRILL_CHANGES)) {
    const keys = place.slice(1).split("/");
    const last = keys.pop() as string;
    const parent = keys.reduce((node, key) => (node[key] ??= {}), copy);
    if (parent[last] === value) continue;
    parent[last] = value;
    places.push(place);
  }
  const header = [
    `# A copy of ${PAGE_SIZE_ORIGINAL} that differs from it only at (scripts/layers.mjs checks it):`,
    ...places.map((place) => `#   ${place}`),
  ];
  return `${header.join("\n")}\n${stringify(copy)}`;
}

/** The base version's info.yaml with the drill version's name and a first paragraph of its own. */
function drillInfo(): string {
  const base = readFileSync(path.join(SPEC_DIR, BASE, "info.yaml"), "utf8");
  return base
    .replaceAll(`(${BASE})`, `(${DRILL})`)
    .replace(`version: ${BASE}`, `version: ${DRILL}`)
    .replace(`Version \`${BASE}\``, `Version \`${DRILL}\``);
}

let work: string;
let spec: string;

beforeAll(() => {
  // The drill shows a change: page[size] optional in the base version, with a maximum above 100.
  if (BASE_PAGE_SIZE.required === true || !(BASE_MAXIMUM > 100))
    throw new Error(
      `test/version-drill.test.ts: the drill makes page[size] required, at most 100, in ${DRILL}, which changes nothing unless ${BASE}'s (${PAGE_SIZE_ORIGINAL}) is optional with a maximum above 100; it is ${JSON.stringify({ required: BASE_PAGE_SIZE.required, maximum: BASE_MAXIMUM })}: change DRILL_CHANGES and the checks of the served sandbox there`,
    );
  work = mkdtempSync(path.join(tmpdir(), "cdas-drill-"));
  spec = path.join(work, "spec");
  for (const name of [...SOURCES, ...REGISTERED.versions])
    cpSync(path.join(SPEC_DIR, name), path.join(spec, name), { recursive: true });
  symlinkSync(path.join(SPEC_DIR, "node_modules"), path.join(spec, "node_modules"), "dir");

  // The whole drill: its info and one changed file in spec/<drill>/, and one registry entry.
  mkdirSync(path.join(spec, DRILL, path.dirname(PAGE_SIZE)), { recursive: true });
  writeFileSync(path.join(spec, DRILL, "info.yaml"), drillInfo());
  writeFileSync(path.join(spec, DRILL, PAGE_SIZE), drillPageSize());
  const json = JSON.parse(readFileSync(path.join(spec, "versions.json"), "utf8"));
  // No camelCaseProperties: the drill version allows those of the version it is based on.
  json.versions.push({ name: DRILL, basedOn: BASE });
  writeFileSync(path.join(spec, "versions.json"), JSON.stringify(json, null, 2));

  execFileSync("bash", ["scripts/build.sh", "--bundles-only"], {
    cwd: spec,
    env: { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH}` },
    stdio: ["ignore", "ignore", "pipe"],
  });
}, 180_000);

afterAll(() => {
  // Unset when the drill stopped before making its copy.
  if (work) rmSync(work, { recursive: true, force: true });
});

const bundle = (version: string) =>
  JSON.parse(readFileSync(path.join(spec, "dist", `${version}.json`), "utf8"));

describe(`a ${DRILL} of one changed file and one registry entry`, () => {
  it(`is bundled beside the others, its header pinned to ${DRILL}, with the change and nothing else of ${BASE} lost`, () => {
    expect(readRegistry(path.join(spec, "dist")).versions).toEqual([...REGISTERED.versions, DRILL]);
    const [v3, v4] = [bundle(BASE), bundle(DRILL)];
    expect(v4.components.parameters.PlatformVersion.schema.enum).toEqual([DRILL]);
    expect(v4.info).toMatchObject({ title: expect.stringContaining(`(${DRILL})`), version: DRILL });
    expect(v4.info.description).toContain(`Version \`${DRILL}\``);
    expect(v4.components.parameters.PageSize).toMatchObject({ required: true, schema: { maximum: 100 } });
    // The base version keeps its own (optional, BASE_MAXIMUM at most: beforeAll checks the drill changes it).
    expect(v3.components.parameters.PageSize.required ?? false).toBe(false);
    expect(v3.components.parameters.PageSize.schema.maximum).toBe(BASE_MAXIMUM);
    expect(Object.keys(v4.paths)).toEqual(Object.keys(v3.paths));
    expect(Object.keys(v4.components.schemas)).toEqual(Object.keys(v3.components.schemas));
    // Its one file is a copy that says where it differs (the build would have stopped otherwise).
    expect(versionCopies(spec).filter(({ copy }) => copy.startsWith(`${DRILL}/`))).toEqual([
      { copy: path.join(DRILL, PAGE_SIZE), original: PAGE_SIZE_ORIGINAL },
    ]);
    expect(versionCopies(spec).flatMap((pair) => copyProblems(pair, spec))).toEqual([]);
  });

  it(`is served by the sandbox: page[size] required and at most 100 in ${DRILL}, optional up to ${BASE_MAXIMUM} in ${BASE}`, async () => {
    const { startMockServer } = await import(pathToFileURL(MOCK_SERVER).href);
    const server = await startMockServer({ specDist: path.join(spec, "dist"), tls: false });
    try {
      const call = async (method: string, url: string, headers: Record<string, string>, body?: unknown) => {
        const response = await fetch(`${server.url}${url}`, {
          method,
          headers: { accept: "application/json", "content-type": "application/json", ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, body: await response.json() };
      };
      const token = await call(
        "POST",
        "/v1/token",
        {},
        { client_id: server.clientId, client_secret: server.clientSecret },
      );
      const get = (url: string, version: string) =>
        call("GET", url, {
          authorization: `Bearer ${token.body.access_token}`,
          "x-platform-version": version,
        });
      expect(server.versions).toEqual([...REGISTERED.versions, DRILL]);
      expect(server.defaultVersion).toBe(REGISTERED.default);
      expect((await get("/v1/end-users", BASE)).status).toBe(200);
      expect((await get(`/v1/end-users?page[size]=${BASE_MAXIMUM}`, BASE)).status).toBe(200);
      const missing = await get("/v1/end-users", DRILL);
      expect(missing.status).toBe(400);
      expect(JSON.stringify(missing.body)).toContain("page[size]");
      expect((await get(`/v1/end-users?page[size]=${BASE_MAXIMUM}`, DRILL)).status).toBe(400);
      const page = await get("/v1/end-users?page[size]=2", DRILL);
      expect(page.status).toBe(200);
      // v4 is based on v3: the v3 envelope, from v3's response shapes.
      expect(page.body.end_users).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it(`gets a client package, scaffolded from client-${BASE} and generated, whose types show the change`, () => {
    // The workspace's client-v3 sources beside the spec copy, as in the repository; the scaffold makes
    // packages/client-v4 from them, and the generator reads ../../spec/dist/v4.json.
    const packages = path.join(work, "packages");
    cpSync(path.join(REPO, "packages", `client-${BASE}`), path.join(packages, `client-${BASE}`), {
      recursive: true,
      filter: (source) => !/[\\/](node_modules|dist|generated|reports|\.turbo)$/.test(source),
    });
    cpSync(path.join(REPO, ".changeset", "config.json"), path.join(work, ".changeset", "config.json"));
    execFileSync(process.execPath, [SCAFFOLD_CLIENT, DRILL, "--repo", work], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    // Released with the other clients: in their fixed group.
    const changesets = JSON.parse(readFileSync(path.join(work, ".changeset", "config.json"), "utf8"));
    expect(changesets.fixed).toContainEqual(
      expect.arrayContaining([`@cdas/client-${BASE}`, `@cdas/client-${DRILL}`]),
    );
    const client = path.join(packages, `client-${DRILL}`);
    expect(JSON.parse(readFileSync(path.join(client, "package.json"), "utf8")).name).toBe(
      `@cdas/client-${DRILL}`,
    );
    // Its type test starts as client-v3's, with the version renamed.
    const typeTest = readFileSync(path.join(client, "test", "types.test-d.ts"), "utf8");
    expect(typeTest.startsWith(`// Started as client-${BASE}'s type test`)).toBe(true);
    expect(typeTest).toContain(`import type * as Published from "@cdas/client-${DRILL}";`);
    expect(typeTest).toContain(`describe("what version ${DRILL.slice(1)} looks like"`);
    expect(typeTest).toContain(`toEqualTypeOf<"${DRILL}">()`);
    expect(typeTest).toContain('describe("what every version rejects"');
    // openapi-fetch and @cdas/client-tooling as the client packages have them.
    symlinkSync(
      path.join(REPO, "packages", `client-${BASE}`, "node_modules"),
      path.join(client, "node_modules"),
      "dir",
    );
    execFileSync(process.execPath, [GENERATE_CLIENT], { cwd: client, stdio: ["ignore", "ignore", "pipe"] });
    const v3Client = path.join(REPO, "packages", `client-${BASE}`, "src", "index.js");
    writeFileSync(
      path.join(client, "program.ts"),
      `import { createClient as createV3Client } from ${JSON.stringify(v3Client)};
import { apiVersion, createClient } from "./src/index.js";

const version: "${DRILL}" = apiVersion;
const v4 = createClient({ baseUrl: "http://127.0.0.1:1" });
void v4.GET("/v1/end-users", { params: { query: { "page[size]": 2 } } });
// @ts-expect-error v4 requires page[size]
void v4.GET("/v1/end-users");
void createV3Client({ baseUrl: "http://127.0.0.1:1" }).GET("/v1/end-users");
void version;
`,
    );
    const options = {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      module: "ESNext",
      moduleResolution: "Bundler",
      target: "ES2022",
      lib: ["ES2022", "DOM"],
      types: [],
    };
    writeFileSync(
      path.join(client, "tsconfig.json"),
      JSON.stringify({ compilerOptions: options, files: ["program.ts"] }),
    );
    const output = typeCheck(client);
    expect(output).toBe("");
  });

  // Last: it takes the drill version out of the copy again.
  it(`leaves no bundle behind once ${DRILL} is out of the registry again (it would be published)`, () => {
    cpSync(path.join(SPEC_DIR, "versions.json"), path.join(spec, "versions.json"));
    execFileSync("bash", ["scripts/build.sh", "--bundles-only"], {
      cwd: spec,
      env: { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH}` },
      stdio: ["ignore", "ignore", "pipe"],
    });
    const bundles = readdirSync(path.join(spec, "dist")).filter((name) => /^v\d+\.(json|yaml)$/.test(name));
    expect(bundles.sort()).toEqual(REGISTERED.versions.flatMap((v) => [`${v}.json`, `${v}.yaml`]).sort());
  }, 180_000);
});
