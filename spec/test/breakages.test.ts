// The deliberate breakages of the bundles that the suite catches: each one is applied to a copy of a
// bundle in a temporary dist/, and the test file named beside it is run against that copy (one child
// vitest run, a project per breakage; see breakages.vitest.config.ts). A breakage is caught when some
// test fails on the broken copy that passes on an unbroken one. Keep a row here for every kind of fact
// the fidelity suite guards, so a loosened assertion shows up as an uncaught breakage.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REGISTRY_FILE } from "../registry/index.js";
import type { PlannedRun } from "./breakages.vitest.config";
import { freshBundle, type Node, pointer, SPEC_DIR, VERSIONS, type Version } from "./helpers";

type Catcher = "fidelity-resources" | "fidelity-endpoints" | "fidelity-versioning" | "examples";

interface Breakage {
  name: string;
  version: Version;
  caughtBy: Catcher;
  apply(doc: Node): void;
}

/** The node at a local JSON pointer, as a writable record (pointer() fails when it is missing). */
const at = (doc: Node, ref: string) => pointer(doc, ref) as Node;

function renameKey(holder: Node, from: string, to: string): void {
  if (!(from in holder)) throw new Error(`${from} is missing`);
  holder[to] = holder[from];
  delete holder[from];
}

const BREAKAGES: Breakage[] = [
  {
    name: "a field renamed (Account.account_number)",
    version: "v1",
    caughtBy: "fidelity-resources",
    apply: (doc) =>
      renameKey(at(doc, "#/components/schemas/Account/properties"), "account_number", "account_no"),
  },
  {
    name: "an enum value dropped (Transaction.status PENDING)",
    version: "v1",
    caughtBy: "fidelity-resources",
    apply: (doc) => {
      const status = at(doc, "#/components/schemas/Transaction/properties/status");
      status.enum = status.enum.filter((value: string) => value !== "PENDING");
    },
  },
  {
    name: "a type changed (Account.is_owned boolean to string)",
    version: "v1",
    caughtBy: "fidelity-resources",
    apply: (doc) => {
      at(doc, "#/components/schemas/Account/properties/is_owned").type = "string";
    },
  },
  {
    name: "a type invented for a field the interface leaves untyped (deposit_rate_type given string)",
    version: "v1",
    caughtBy: "fidelity-resources",
    apply: (doc) => {
      at(doc, "#/components/schemas/DepositRateBase/allOf/1/properties/deposit_rate_type").type = "string";
    },
  },
  {
    name: "an implied type kept without saying what implies it (a rate's additional_info)",
    version: "v1",
    caughtBy: "fidelity-resources",
    apply: (doc) => {
      at(doc, "#/components/schemas/BankingRateBase/properties/additional_info").description =
        "Additional information about the rate.";
    },
  },
  {
    name: "a format changed (Account.creation_date date to date-time)",
    version: "v1",
    caughtBy: "fidelity-resources",
    apply: (doc) => {
      at(doc, "#/components/schemas/Account/properties/creation_date").format = "date-time";
    },
  },
  {
    // Caught only because v1's Account then differs from v2's; no test forbids it outright.
    name: "other fields said with additionalProperties: true (Account)",
    version: "v1",
    caughtBy: "fidelity-versioning",
    apply: (doc) => {
      at(doc, "#/components/schemas/Account").additionalProperties = true;
    },
  },
  {
    name: "values invented for an open list (ProductCategory closed by an enum)",
    version: "v1",
    caughtBy: "fidelity-resources",
    apply: (doc) => {
      at(doc, "#/components/schemas/ProductCategory").enum = [
        "TRANS_AND_SAVINGS_ACCOUNTS",
        "CRED_AND_CHRG_CARDS",
      ];
    },
  },
  {
    name: "one of the two token response forms dropped",
    version: "v1",
    caughtBy: "fidelity-resources",
    apply: (doc) => {
      at(doc, "#/components/schemas/TokenResponse").oneOf.pop();
    },
  },
  {
    name: "the acccounts spelling corrected (/v1/banking/acccounts/direct-debits)",
    version: "v1",
    caughtBy: "fidelity-endpoints",
    apply: (doc) =>
      renameKey(doc.paths, "/v1/banking/acccounts/direct-debits", "/v1/banking/accounts/direct-debits"),
  },
  {
    name: "a path dropped (/v1/payees)",
    version: "v1",
    caughtBy: "fidelity-endpoints",
    apply: (doc) => renameKey(doc.paths, "/v1/payees", "/v1/payees-gone"),
  },
  {
    name: "a default changed (limit 25 to 50)",
    version: "v1",
    caughtBy: "fidelity-endpoints",
    apply: (doc) => {
      at(doc, "#/components/parameters/Limit/schema").default = 50;
    },
  },
  {
    name: "a maximum changed (page[size] 1000 to 500)",
    version: "v1",
    caughtBy: "fidelity-endpoints",
    apply: (doc) => {
      at(doc, "#/components/parameters/PageSize/schema").maximum = 500;
    },
  },
  {
    name: "a required parameter made optional (end_user_id)",
    version: "v1",
    caughtBy: "fidelity-endpoints",
    apply: (doc) => {
      at(doc, "#/components/parameters/EndUserId").required = false;
    },
  },
  {
    name: "the version header dropped (GET /v1/accounts)",
    version: "v1",
    caughtBy: "fidelity-versioning",
    apply: (doc) => {
      const op = at(doc, "#/paths/~1v1~1accounts/get");
      op.parameters = op.parameters.filter((p: Node) => p.$ref !== "#/components/parameters/PlatformVersion");
    },
  },
  {
    name: "an error media type changed (short 400 as application/problem+json)",
    version: "v1",
    caughtBy: "fidelity-endpoints",
    apply: (doc) =>
      renameKey(
        at(doc, "#/components/responses/BadRequestShort/content"),
        "application/json",
        "application/problem+json",
      ),
  },
  {
    name: "security dropped from an operation (GET /v1/accounts)",
    version: "v1",
    caughtBy: "fidelity-endpoints",
    apply: (doc) => {
      at(doc, "#/paths/~1v1~1accounts/get").security = [];
    },
  },
  {
    name: "the api:user.write role dropped (POST /v1/auth/session)",
    version: "v1",
    caughtBy: "fidelity-endpoints",
    apply: (doc) => {
      at(doc, "#/paths/~1v1~1auth~1session/post").security = [{ bearerAuth: [] }];
    },
  },
  {
    name: "a version 2 rename undone (deposit_rates back to depositRates)",
    version: "v2",
    caughtBy: "fidelity-versioning",
    apply: (doc) =>
      renameKey(
        at(doc, "#/components/schemas/BankingProductDetail/allOf/1/properties"),
        "deposit_rates",
        "depositRates",
      ),
  },
  {
    name: "the version 3 consent envelope renamed (consents to data)",
    version: "v3",
    caughtBy: "fidelity-versioning",
    apply: (doc) => {
      const list = at(doc, "#/components/schemas/ConsentList");
      renameKey(list.properties, "consents", "data");
      list.required = ["data"];
    },
  },
  {
    name: "a field invented in an example below an allOf (GET /v1/banking/products/{product_id})",
    version: "v1",
    caughtBy: "examples",
    apply: (doc) => {
      const content = at(doc, "#/paths/~1v1~1banking~1products~1{product_id}/get/responses/200/content");
      content["application/json"].examples.savingsAccount.value.product.invented_field = "x";
    },
  },
];

const CONTROL = "unbroken";
let workDir = "";
let failures: Record<string, string[]> = {};
const changed = new Map<string, boolean>();

/**
 * Writes the bundles and the version registry (the suite reads its versions from it) into a fresh
 * folder, the given version passed through `edit` first.
 */
function writeDist(folder: string, edit?: { version: Version; apply(doc: Node): void }): string {
  const dist = join(workDir, folder);
  mkdirSync(dist);
  copyFileSync(join(SPEC_DIR, REGISTRY_FILE), join(dist, REGISTRY_FILE));
  for (const version of VERSIONS) {
    const doc = freshBundle(version);
    if (edit?.version === version) edit.apply(doc);
    writeFileSync(join(dist, `${version}.json`), JSON.stringify(doc));
  }
  return dist;
}

/** The vitest command line of this workspace, run by the same Node. */
const vitestCli = () =>
  join(dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), "cdas-breakages-"));
  const control = writeDist(CONTROL);
  const catchers = [...new Set(BREAKAGES.map((b) => b.caughtBy))];
  const plan: PlannedRun[] = catchers.map((c) => ({
    project: `${CONTROL} ${c}`,
    file: `test/${c}.test.ts`,
    dist: control,
  }));
  for (const [index, breakage] of BREAKAGES.entries()) {
    const dist = writeDist(`breakage-${index}`, breakage);
    const original = JSON.stringify(freshBundle(breakage.version));
    changed.set(breakage.name, readFileSync(join(dist, `${breakage.version}.json`), "utf8") !== original);
    plan.push({ project: breakage.name, file: `test/${breakage.caughtBy}.test.ts`, dist });
  }
  writeFileSync(join(workDir, "plan.json"), JSON.stringify(plan));
  // The child must not believe it is a worker of this run.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("VITEST")));
  const child = spawnSync(
    process.execPath,
    [vitestCli(), "run", "--config", "test/breakages.vitest.config.ts"],
    { cwd: SPEC_DIR, env: { ...env, CDAS_BREAKAGES_DIR: workDir }, encoding: "utf8" },
  );
  try {
    failures = JSON.parse(readFileSync(join(workDir, "failures.json"), "utf8"));
  } catch {
    throw new Error(`the child vitest run left no failures.json:\n${child.stdout}\n${child.stderr}`);
  }
}, 300_000);

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe("Deliberate breakages of the bundles are caught", () => {
  it("an unbroken copy fails no test (else a breakage could be 'caught' by an error of the setup)", () => {
    const controls = Object.entries(failures).filter(([project]) => project.startsWith(`${CONTROL} `));
    expect(controls.flatMap(([, failed]) => failed)).toEqual([]);
  });

  it.each(BREAKAGES)("$version $name: caught by $caughtBy", ({ name, caughtBy }) => {
    expect(changed.get(name), "the breakage changes the bundle").toBe(true);
    const before = new Set(failures[`${CONTROL} ${caughtBy}`] ?? []);
    const caught = (failures[name] ?? []).filter((test) => !before.has(test));
    expect(caught.length, `no test of ${caughtBy} fails on the broken copy`).toBeGreaterThan(0);
  });
});
