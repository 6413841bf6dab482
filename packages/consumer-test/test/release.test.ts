/**
 * The release flow: `changeset version` on a copy of the workspace gives the intended first
 * release, `pnpm publish --dry-run` passes and `pnpm pack` shows what each package would upload, and the CI guard fails a
 * breaking spec change that carries no breaking bump (major, or minor while a package is 0.x).
 */
import { spawnSync } from "node:child_process";
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
import { dirname, join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_VERSIONS, publishablePackages, ROOT, run, workspaceDirs } from "./workspace.js";

const FIRST_RELEASE = "0.1.0";
// Loopback where nothing listens: a dry run must not need the registry.
const NO_REGISTRY = "http://127.0.0.1:9/";

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  files?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** The files `pnpm pack` puts in a package's tarball (its JSON report follows any lifecycle output). */
function packedFiles(dir: string): string[] {
  const destination = mkdtempSync(join(tmpdir(), "cdas-pack-"));
  try {
    const output = run("pnpm", ["pack", "--json", "--pack-destination", destination], { cwd: dir });
    const report = JSON.parse(output.slice(output.search(/^\{/m))) as { files: { path: string }[] };
    return report.files.map((file) => file.path);
  } finally {
    rmSync(destination, { recursive: true, force: true });
  }
}

/** The top folders (or files) a manifest's `files` publishes: `dist/*.json` is `dist`; `!` exclusions are not. */
function publishedFolders(manifest: Manifest): string[] {
  const tops = (manifest.files ?? [])
    .filter((entry) => !entry.startsWith("!"))
    .map((entry) => entry.split("/")[0]!);
  return [...new Set(tops)];
}

/**
 * A copy of the workspace as publishing sees it: manifests, READMEs, built files and the changesets,
 * with each package's workspace dependencies linked as `pnpm install` would link them.
 */
function copyWorkspace(): string {
  const copy = mkdtempSync(join(tmpdir(), "cdas-release-"));
  // The LICENSE and the script that copies it into each package when it is packed (its `prepack`).
  for (const file of [
    "package.json",
    "pnpm-workspace.yaml",
    ".changeset",
    "LICENSE",
    "scripts/copy-license.mjs",
  ])
    cpSync(join(ROOT, file), join(copy, file), { recursive: true });
  // The changelog generator is resolved from the copy: the workspace's own install serves it.
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
  const dirs = workspaceDirs();
  const byName = new Map<string, string>();
  for (const dir of dirs) {
    const manifest = JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8")) as Manifest;
    for (const entry of ["package.json", "README.md", ...publishedFolders(manifest)]) {
      if (existsSync(join(ROOT, dir, entry)))
        cpSync(join(ROOT, dir, entry), join(copy, dir, entry), { recursive: true });
    }
    byName.set(manifest.name, dir);
  }
  for (const dir of dirs) {
    const manifest = JSON.parse(readFileSync(join(copy, dir, "package.json"), "utf8")) as Manifest;
    for (const [name, range] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })) {
      if (!range.startsWith("workspace:")) continue;
      const link = join(copy, dir, "node_modules", name);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(relative(dirname(link), join(copy, byName.get(name)!)), link);
    }
  }
  return copy;
}

describe("first release", () => {
  let copy: string;
  beforeAll(() => {
    copy = copyWorkspace();
    run(join(ROOT, "node_modules/.bin/changeset"), ["version"], { cwd: copy });
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it(`changeset version brings every published package to ${FIRST_RELEASE}`, () => {
    const versions = Object.fromEntries(
      publishablePackages().map((pkg) => {
        const manifest = JSON.parse(
          readFileSync(join(copy, relative(ROOT, pkg.dir), "package.json"), "utf8"),
        ) as Manifest;
        return [pkg.name, manifest.version];
      }),
    );
    console.log(`versions after changeset version: ${JSON.stringify(versions)}`);
    expect(Object.values(versions).every((version) => version === FIRST_RELEASE)).toBe(true);
    expect(Object.keys(versions).sort()).toEqual(
      [
        ...API_VERSIONS.map((version) => `@cdas/client-${version}`),
        "@cdas/mock-server",
        "@cdas/sdk",
        "@cdas/spec",
      ].sort(),
    );
  });

  it.each(publishablePackages().map((pkg) => [pkg.name, relative(ROOT, pkg.dir)]))(
    "pnpm publish --dry-run of %s lists only what users need",
    (name, dir) => {
      const publish = spawnSync(
        "pnpm",
        ["publish", "--dry-run", "--no-git-checks", "--registry", NO_REGISTRY],
        {
          cwd: join(copy, dir),
          encoding: "utf8",
          // No retries against the unreachable registry (npm would back off for a minute).
          env: { ...process.env, npm_config_fetch_retries: "0" },
        },
      );
      const output = `${publish.stdout}${publish.stderr}`;
      expect(publish.status, output).toBe(0);
      expect(output).toContain(`${name}@${FIRST_RELEASE}`);
      // What it would upload is its pack (pnpm 11 and later no longer list it in a dry run).
      const files = packedFiles(join(copy, dir));
      console.log(`${name}@${FIRST_RELEASE} would publish:\n  ${files.join("\n  ")}`);
      expect(files).toContain("package.json");
      expect(files).toContain("README.md");
      expect(files).toContain("LICENSE");
      expect(readFileSync(join(copy, dir, "LICENSE"), "utf8")).toBe(
        readFileSync(join(ROOT, "LICENSE"), "utf8"),
      );
      // Only what the manifest's `files` names and the files npm always adds; never tests or sources.
      const manifest = JSON.parse(readFileSync(join(copy, dir, "package.json"), "utf8")) as Manifest;
      const published = publishedFolders(manifest);
      expect(published.length).toBeGreaterThan(0);
      expect(
        files.filter(
          (file) =>
            !published.includes(file.split("/")[0]!) &&
            !/^(package\.json|README\.md|CHANGELOG\.md|LICENSE)$/.test(file),
        ),
      ).toEqual([]);
      expect(files.filter((file) => /(^|\/)(test|src)\/|\.test\.|\.tsbuildinfo$/.test(file))).toEqual([]);
    },
  );
});

describe("breaking spec changes need a breaking bump (scripts/check-breaking-changesets.mjs)", () => {
  const script = join(ROOT, "scripts/check-breaking-changesets.mjs");
  let dir: string;
  let changesets: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "cdas-breaking-"));
    changesets = join(dir, "changesets");
    mkdirSync(changesets);
    // v2 loses one path: a breaking change of v2 only.
    for (const version of API_VERSIONS) {
      const bundle = JSON.parse(readFileSync(join(ROOT, `spec/dist/${version}.json`), "utf8"));
      if (version === "v2") delete bundle.paths[Object.keys(bundle.paths)[0]!];
      writeFileSync(join(dir, `${version}.json`), JSON.stringify(bundle));
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const unchanged = join(ROOT, "spec/dist/{version}.json");
  /** Runs the guard from the workspace's bundles to `to` (default: the copies with v2's path removed). */
  const check = (to = join(dir, "{version}.json")) =>
    spawnSync(process.execPath, [script, unchanged, to, "--changesets", changesets], { encoding: "utf8" });

  it("passes when nothing breaks", () => {
    const result = check(unchanged);
    expect(result.stdout).toContain("No breaking spec change.");
    expect(result.status).toBe(0);
  });

  it("passes a change that adds a version: the base has nothing of it to break", () => {
    const base = join(dir, "base");
    mkdirSync(base, { recursive: true });
    for (const version of ["v1", "v2"])
      cpSync(join(ROOT, `spec/dist/${version}.json`), join(base, `${version}.json`));
    const result = spawnSync(
      process.execPath,
      [script, join(base, "{version}.json"), unchanged, "--changesets", changesets],
      { encoding: "utf8" },
    );
    expect(result.stdout).toContain("v3 is new in this change: nothing of it can break.");
    expect(result.stdout).toContain("No breaking spec change.");
    expect(result.status).toBe(0);
  });

  it("asks a git revision's own registry which versions it has", () => {
    const probe = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { fromHasVersion } from ${JSON.stringify(script)};
         console.log(JSON.stringify(["v1", "v99"].map((v) => fromHasVersion("HEAD:{version}", v))));`,
      ],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(probe.stderr).toBe("");
    expect(JSON.parse(probe.stdout)).toEqual([true, false]);
  });

  it("fails a breaking change without a breaking bump, naming the packages and the bump each needs", () => {
    // The workspace stands at 0.0.0: a minor is the breaking bump, so a patch falls short.
    writeFileSync(
      join(changesets, "patch.md"),
      '---\n"@cdas/spec": patch\n"@cdas/client-v2": patch\n---\n\nA change.\n',
    );
    const result = check();
    expect(result.stdout).toContain("### Breaking changes in v2");
    expect(result.stdout).toContain(
      "need a changeset with a breaking bump for: @cdas/client-v2 (minor), @cdas/spec (minor)",
    );
    expect(result.status).toBe(1);
  });

  it("passes once the spec and that version's client carry the breaking bump", () => {
    writeFileSync(
      join(changesets, "minor.md"),
      '---\n"@cdas/spec": minor\n"@cdas/client-v2": minor\n---\n\nRemoved a path.\n',
    );
    const result = check();
    expect(result.stdout).toContain("carry breaking bumps");
    expect(result.status).toBe(0);
  });

  it("asks for a major from 1.0.0 and a minor before it, as semver's 0.x does", () => {
    const probe = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { missingBumps } from ${JSON.stringify(script)};
         const versions = { "@cdas/spec": "1.2.0", "@cdas/client-v2": "0.3.1" };
         const bumps = new Map([["@cdas/spec", "minor"], ["@cdas/client-v2", "patch"]]);
         console.log(JSON.stringify(missingBumps(["v2"], bumps, (name) => versions[name])));`,
      ],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(probe.stderr).toBe("");
    expect(JSON.parse(probe.stdout)).toEqual([
      ["@cdas/client-v2", "minor"],
      ["@cdas/spec", "major"],
    ]);
  });
});

describe("the quick start on a machine with only Node and npm (scripts/env.sh)", () => {
  it("installs the pnpm that packageManager pins when there is none, under the scripts' set -euo pipefail, and carries on", () => {
    const bin = mkdtempSync(join(tmpdir(), "cdas-no-pnpm-"));
    try {
      // A stand-in npm that records what it was asked; PATH has it, node, bash's own tools and no pnpm.
      const calls = join(bin, "npm-calls");
      writeFileSync(join(bin, "npm"), `#!/bin/sh\necho "$@" >> "${calls}"\n`, { mode: 0o755 });
      symlinkSync(process.execPath, join(bin, "node"));
      for (const tool of ["cut", "id"])
        symlinkSync(run("sh", ["-c", `command -v ${tool}`], { cwd: ROOT }).trim(), join(bin, tool));
      const result = spawnSync(
        "/bin/bash",
        ["-c", 'set -euo pipefail; source scripts/env.sh; ensure_pnpm; echo "carried on"'],
        { cwd: ROOT, encoding: "utf8", env: { PATH: bin } },
      );
      expect(result.stdout).toContain("installing pnpm");
      expect(result.stdout).toContain("carried on");
      const { packageManager } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
        packageManager: string;
      };
      // The pin may carry a "+sha512..." hash, which is no part of the version npm installs.
      expect(readFileSync(calls, "utf8")).toBe(`i -g ${packageManager.split("+")[0]}\n`);
      expect(result.status).toBe(0);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});

describe("the files that list the clients by hand (spec/README.md, adding a version, step 5)", () => {
  // A package.json cannot read the registry: each of these names every client itself.
  const clientFolders = readdirSync(join(ROOT, "packages"))
    .filter((name) => /^client-v\d+$/.test(name))
    .sort();
  const clientsIn = (names: Iterable<string>) =>
    [...names]
      .map((name) => name.replace(/^@cdas\//, ""))
      .filter((name) => /^client-v\d+$/.test(name))
      .sort();
  /** The package names a manifest lists under `field` (dependencies, overrides, ...). */
  const namesIn = (file: string, field: string) => {
    const manifest = JSON.parse(readFileSync(join(ROOT, file), "utf8")) as Record<string, object | undefined>;
    return Object.keys(manifest[field] ?? {});
  };
  const HAND_LISTS: [file: string, clients: () => string[]][] = [
    ["examples/package.json", () => clientsIn(namesIn("examples/package.json", "dependencies"))],
    [
      "packages/consumer-test/package.json",
      () => clientsIn(namesIn("packages/consumer-test/package.json", "devDependencies")),
    ],
    [
      "examples/typescript/package.json",
      () => clientsIn(namesIn("examples/typescript/package.json", "overrides")),
    ],
    [
      "examples/typescript/README.md",
      () => {
        const loop = /^for p in (.+); do .*pnpm pack/m.exec(
          readFileSync(join(ROOT, "examples/typescript/README.md"), "utf8"),
        );
        return clientsIn(loop?.[1]?.split(/\s+/) ?? []);
      },
    ],
  ];

  it("finds the client packages", () => {
    expect(clientFolders).toEqual(expect.arrayContaining(["client-v1"]));
  });

  it.each(HAND_LISTS)("%s names every packages/client-v* and no other", (_file, clients) => {
    expect(clients()).toEqual(clientFolders);
  });

  it("spec/README.md names each of these files in its steps for adding a version", () => {
    const readme = readFileSync(join(ROOT, "spec/README.md"), "utf8");
    const addingAVersion = readme.slice(readme.indexOf("- **A version**"));
    for (const [file] of HAND_LISTS) expect(addingAVersion, file).toContain(`\`${file}\``);
  });
});
