// The docs site in headless Chromium (Debian's package, driven by playwright-core) with the network cut
// off from everything but loopback: each reference lists its version's operations and shows an
// operation's parameters and response schema, the version links work, the change reports show their
// breaking changes, pages also work from the file system, and no request leaves loopback.
// Screenshots of every page go to reports/screenshots/ (test artifacts, not committed).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startStaticServer } from "../bin/static-server.mjs";
import { buildDocs } from "../scripts/build-docs.mjs";
import { VERSIONS } from "./helpers";
import { changedFromPrevious } from "./interface-model";

const SPEC_DIR = path.resolve(import.meta.dirname, "..");
const DOCS_DIR = path.join(SPEC_DIR, "dist", "docs");
const SCREENSHOTS = path.join(SPEC_DIR, "reports", "screenshots");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);
const MENU_ITEM = '[data-component-name="Menu/MenuItem"]';

type Operation = {
  method: string;
  path: string;
  summary: string;
  tag: string;
  parameters: Record<string, unknown>[];
  responseFields: string[];
};

let context: BrowserContext;
let server: { url: string; close: () => Promise<void> };
let profileDir: string;
const outsideRequests: string[] = [];
const loopbackRequests: string[] = [];

/** Resolves a local $ref inside a bundle. */
function resolve<T>(doc: Record<string, unknown>, node: unknown): T {
  let current = node as { $ref?: string };
  while (current?.$ref) {
    current = current.$ref
      .slice(2)
      .split("/")
      .reduce<unknown>((n, key) => (n as Record<string, unknown>)[key], doc) as { $ref?: string };
  }
  return current as T;
}

/** The operations of a bundle, with their query/path parameters and the top-level fields of the 200 body. */
function operationsOf(version: string): Operation[] {
  const doc = JSON.parse(readFileSync(path.join(SPEC_DIR, "dist", `${version}.json`), "utf8"));
  const operations: Operation[] = [];
  for (const [p, item] of Object.entries<Record<string, Record<string, unknown>>>(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const parameters = ((op.parameters as unknown[]) ?? []).map((x) =>
        resolve<Record<string, unknown>>(doc, x),
      );
      const ok = resolve<{ content?: Record<string, { schema?: unknown }> }>(
        doc,
        (op.responses as Record<string, unknown>)?.["200"] ??
          (op.responses as Record<string, unknown>)?.["201"],
      );
      // Redoc lists the fields of the body, or of its items when the body is a bare array.
      let schema = resolve<{ properties?: Record<string, unknown>; items?: unknown }>(
        doc,
        ok?.content?.["application/json"]?.schema,
      );
      if (schema?.items) schema = resolve(doc, schema.items);
      operations.push({
        method,
        path: p,
        summary: String(op.summary),
        tag: String((op.tags as string[])[0]),
        parameters,
        responseFields: Object.keys(schema?.properties ?? {}),
      });
    }
  }
  return operations;
}

async function newPage(): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function slugOf(tag: string) {
  return tag.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

/** Opens a reference and waits for Redoc to hydrate the sidebar. */
async function openReference(page: Page, url: string) {
  await page.goto(url);
  await page.locator(`${MENU_ITEM}.menu-item-type-group`).first().waitFor();
}

/** The sidebar group of a tag; clicking it opens the group (and collapses others). */
function tagGroup(page: Page, tag: string) {
  return page
    .locator(`${MENU_ITEM}.menu-item-type-group`)
    .filter({ hasText: new RegExp(`^${escapeRegExp(tag)}`) });
}

/** Every operation listed in the sidebar, group by group ("<summary><method>"). */
async function listedOperations(page: Page): Promise<string[]> {
  const groups = page.locator(`${MENU_ITEM}.menu-item-type-group`);
  const listed: string[] = [];
  for (let i = 0; i < (await groups.count()); i++) {
    await groups.nth(i).click();
    const items = groups.nth(i).locator(`${MENU_ITEM}.menu-item-type-operation`);
    await items.first().waitFor();
    listed.push(...(await items.evaluateAll((els) => els.map((el) => el.textContent?.trim() ?? ""))));
  }
  return listed;
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  if (!existsSync(path.join(DOCS_DIR, "index.html"))) await buildDocs({ log: () => {} });
  mkdirSync(SCREENSHOTS, { recursive: true });
  server = await startStaticServer({ root: DOCS_DIR, host: "127.0.0.1", port: 0 });
  profileDir = mkdtempSync(path.join(tmpdir(), "cdas-docs-chromium-"));
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  // Cut the network off: anything that is not loopback, a file or inline data is recorded and aborted.
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    const local = ["file:", "data:", "blob:"].includes(url.protocol) || LOOPBACK_HOSTS.has(url.hostname);
    if (local) {
      loopbackRequests.push(url.href);
      return route.continue();
    }
    outsideRequests.push(url.href);
    return route.abort("internetdisconnected");
  });
}, 180_000);

afterAll(async () => {
  await context?.close();
  await server?.close();
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
});

afterEach(() => {
  expect(outsideRequests, "requests that tried to leave loopback").toEqual([]);
});

describe("index page", () => {
  it("lists the versions, marks what each version changes and links the change reports", async () => {
    const page = await newPage();
    await page.goto(`${server.url}index.html`);
    for (const version of VERSIONS) {
      await expect(
        page.locator(`section[data-version="${version}"] h2 a`).getAttribute("href"),
      ).resolves.toBe(`${version}.html`);
    }
    const reportLinks = await page
      .locator('[data-testid="reports"] tbody td:first-child a[href$=".html"]')
      .evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    // A report for every pair of versions, earlier to later.
    expect(reportLinks.sort()).toEqual(
      VERSIONS.flatMap((from, i) =>
        VERSIONS.slice(i + 1).map((to) => `changes/${from}-to-${to}.html`),
      ).sort(),
    );

    // The matrix marks, per version, the operations that differ from the version before.
    const changedIn = async (column: number) =>
      page
        .locator('[data-testid="matrix"] tbody tr')
        .evaluateAll(
          (rows, col) =>
            rows
              .filter((row) => row.children[col]?.getAttribute("data-changed") === "yes")
              .map((row) => row.children[0]?.textContent),
          column,
        );
    for (const [index, version] of VERSIONS.entries()) {
      if (index === 0) continue;
      const changed = (await changedIn(index + 1)).map((operation) => operation?.split(" ")[1]);
      expect(
        changed.sort(),
        `${version}: the operations the index marks changed, and changedFromPrevious (test/interface-model.ts)`,
      ).toEqual([...changedFromPrevious(version)].sort());
    }
    await screenshot(page, "index");
    await page.close();
  });

  it("fits a 390 px wide screen: the index, a report and a guide scroll down only (their tables inside)", async () => {
    const page = await newPage();
    await page.setViewportSize({ width: 390, height: 800 });
    const pair = `${VERSIONS[0]}-to-${VERSIONS.at(-1)}`;
    for (const file of ["index.html", `changes/${pair}.html`, `changes/${pair}.guide.html`]) {
      await page.goto(`${server.url}${file}`);
      const [scrollWidth, clientWidth] = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        document.documentElement.clientWidth,
      ]);
      expect(scrollWidth, file).toBeLessThanOrEqual(clientWidth);
    }
    await page.close();
  });
});

describe.each(VERSIONS)("%s reference", (version) => {
  const operations = operationsOf(version);

  it("lists every operation of the version", async () => {
    const page = await newPage();
    await openReference(page, `${server.url}${version}.html`);
    await expect(page.title()).resolves.toContain(`(${version})`);
    const listed = await listedOperations(page);
    expect(listed).toHaveLength(operations.length);
    for (const op of operations) {
      expect(listed, op.summary).toContain(`${op.summary}${op.method}`);
    }
    await screenshot(page, `${version}-reference`);
    await page.close();
  });

  it("opening an operation shows its parameters and response schema", async () => {
    const page = await newPage();
    await openReference(page, `${server.url}${version}.html`);
    // The consent list differs most between versions; accounts has the richest parameters.
    for (const target of ["GET /v1/consent", "GET /v1/banking/accounts"]) {
      const op = operations.find((o) => `${o.method.toUpperCase()} ${o.path}` === target)!;
      const group = tagGroup(page, op.tag);
      await group.click();
      await group.locator(`${MENU_ITEM}.menu-item-type-operation`, { hasText: op.summary }).first().click();
      await page.waitForURL((url) => url.hash.length > 2 && !url.hash.endsWith(`/${slugOf(op.tag)}`));
      const sectionId = decodeURIComponent(new URL(page.url()).hash.slice(2));
      const section = page.locator(`[id="${sectionId}"]`);
      await section.locator("h1, h2").first().waitFor();
      await expect(section.locator("h1, h2").first().textContent()).resolves.toContain(op.summary);
      for (const parameter of op.parameters.filter((p) => p.in === "query")) {
        const id = `${sectionId}/t=request&in=query&path=${parameter.name}`;
        await page.locator(`[id="${id}"]`).waitFor({ state: "visible" });
        await expect(page.locator(`[id="${id}"]`).isVisible(), id).resolves.toBe(true);
      }
      expect(op.responseFields.length, `${version} ${target} response fields`).toBeGreaterThan(0);
      for (const field of op.responseFields) {
        const id = `${sectionId}/t=response&c=200&path=${field}`;
        await page.locator(`[id="${id}"]`).waitFor({ state: "visible" });
        await expect(page.locator(`[id="${id}"]`).isVisible(), id).resolves.toBe(true);
      }
      await screenshot(page, `${version}-${op.path.split("/").pop()}`);
    }
    await page.close();
  });

  it("offers each operation's three samples: curl, @cdas/sdk and @cdas/client-vN", async () => {
    const page = await newPage();
    await openReference(page, `${server.url}${version}.html`);
    const op = operations.find((o) => `${o.method.toUpperCase()} ${o.path}` === "GET /v1/consent")!;
    const sectionId = decodeURIComponent(
      (await openOperation(page, op.tag, new RegExp(`^${escapeRegExp(op.summary)}`))).slice(2),
    );
    const samples = page.locator(`[id="${sectionId}"] [data-testid="right-panel"]`).filter({
      has: page.locator('[data-testid="dropdown"]'),
    });
    const code = samples.locator('[data-testid="source-code"]').first();
    await expect(code.textContent()).resolves.toContain("curl ");
    // The language menu is the dropdown whose button names the sample shown.
    let shown = "curl";
    for (const [label, call] of [
      ["@cdas/sdk", "createSdk("],
      [`@cdas/client-${version}`, `from "@cdas/client-${version}"`],
    ] as const) {
      await samples.locator('[data-testid="dropdown"] button', { hasText: shown }).first().click();
      // The menu may open past the viewport's edge (the samples panel is sticky, and Redoc lays the page
      // out late under load): the click is dispatched to the option itself, which needs no viewport.
      await page.getByText(label, { exact: true }).dispatchEvent("click");
      await expect.poll(() => code.textContent(), { message: label }).toContain(call);
      shown = label;
    }
    await screenshot(page, `${version}-samples`);
    await page.close();
  });

  it("shows no Markdown as written: no backtick outside code (Redoc renders none in a server's description)", async () => {
    const page = await newPage();
    await openReference(page, `${server.url}${version}.html`);
    const raw = await page.evaluate(() => {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      const found: string[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement?.closest("pre, code, script, style")) continue;
        if (node.textContent?.includes("`")) found.push(node.textContent.trim().slice(0, 120));
      }
      return found;
    });
    expect(raw).toEqual([]);
    await page.close();
  });

  it("shows the shared description once (redocly build-docs runs the bundle's decorators again)", async () => {
    const page = await newPage();
    await openReference(page, `${server.url}${version}.html`);
    const text = await page.evaluate(() => document.querySelector("#redoc")?.textContent ?? "");
    const sentence = "A server-side client exchanges its client identifier and secret for a bearer token";
    expect(text.split(sentence).length - 1).toBe(1);
    await page.close();
  });

  it("links to the other versions and to the index", async () => {
    const page = await newPage();
    const other = VERSIONS[(VERSIONS.indexOf(version) + 1) % VERSIONS.length]!;
    await page.goto(`${server.url}${version}.html`);
    await page.locator('[data-testid="site-nav"]').getByText(`${other} reference`).click();
    await page.waitForURL(`**/${other}.html`);
    await page.locator(`${MENU_ITEM}.menu-item-type-group`).first().waitFor();
    await expect(page.title()).resolves.toContain(`(${other})`);
    await page.locator('[data-testid="site-nav"]').getByText("All versions").click();
    await page.waitForURL("**/index.html");
    await expect(page.locator("h1").textContent()).resolves.toContain("API reference");
    await page.close();
  });
});

/** Opens an operation from the sidebar and returns the fragment Redoc writes for it. */
async function openOperation(page: Page, tag: string, summary: RegExp): Promise<string> {
  const group = tagGroup(page, tag);
  await group.click();
  await group.locator(`${MENU_ITEM}.menu-item-type-operation`, { hasText: summary }).first().click();
  await page.waitForURL((url) => url.hash.length > 2 && !url.hash.endsWith(`/${slugOf(tag)}`));
  return new URL(page.url()).hash;
}

describe("version switcher", () => {
  it("shows one version in the heading", async () => {
    const page = await newPage();
    await openReference(page, `${server.url}v2.html`);
    await expect(page.locator("#api-content h1").first().textContent()).resolves.toBe(
      "Consented Data Access Service (v2)",
    );
    await page.close();
  });

  it("switching version keeps the reader on the same operation", async () => {
    const page = await newPage();
    await openReference(page, `${server.url}v2.html`);
    const hash = await openOperation(page, "Banking", /direct debits/i);
    expect(hash).toMatch(/listdirectdebits$/);
    await page.locator('[data-testid="site-nav"] a[data-switch-version="v3"]').click();
    await page.waitForURL(`**/v3.html${hash}`);
    const section = page.locator(`[id="${decodeURIComponent(hash.slice(2))}"]`);
    await section.locator("h1, h2").first().waitFor();
    // Redoc scrolled to it: the operation's heading is in view, just below the bar.
    const box = await section.locator("h1, h2").first().boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y).toBeLessThan(400);
    await expect(page.locator('[data-testid="version-note"]').textContent()).resolves.toContain("same in v2");
    await screenshot(page, "switch-v2-to-v3-direct-debits");
    await page.close();
  });

  it("says when the operation changed and links its entry in the migration guide", async () => {
    const page = await newPage();
    await openReference(page, `${server.url}v2.html`);
    await openOperation(page, "Consents and end users", /consent/i);
    const changed = page.locator('[data-testid="changed-v3"]');
    await expect(changed.textContent()).resolves.toBe("changed in v2 → v3");
    await expect(page.locator('[data-testid="same-v1"]').count()).resolves.toBe(1);
    await changed.click();
    await page.waitForURL(/changes\/v2-to-v3\.guide\.html#op-get-v1-consent/);
    const target = page.locator("section:target");
    await expect(target.locator("h2").textContent()).resolves.toContain("GET /v1/consent");
    await expect(target.textContent()).resolves.toContain(
      "`arrangement_id` is now `arrangementId`".replaceAll("`", ""),
    );
    await screenshot(page, "guide-v2-to-v3-consent");
    await page.close();
  });

  it("the guide entry it links names every section of the operation, its heading below the guide's bar", async () => {
    const page = await newPage();
    await openReference(page, `${server.url}v1.html`);
    const op = operationsOf("v1").find((o) => o.path === "/v1/banking/products/{product_id}")!;
    await openOperation(page, op.tag, new RegExp(`^${escapeRegExp(op.summary)}`));
    await page.locator('[data-testid="changed-v3"]').click();
    await page.waitForURL(/changes\/v1-to-v3\.guide\.html#op-get-v1-banking-products-product-id$/);
    const target = page.locator("section:target");
    // Every other section that names the operation is linked from the one the reader lands on.
    const naming = await page
      .locator("main section")
      .evaluateAll((sections) =>
        sections
          .filter((s) =>
            (s as HTMLElement).dataset.operations
              ?.split("|")
              .includes("GET /v1/banking/products/{product_id}"),
          )
          .map((s) => s.id),
      );
    const linked = await target
      .locator('[data-testid="related"] a')
      .evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    const landing = await target.getAttribute("id");
    expect(naming.length).toBeGreaterThan(1);
    for (const id of naming.filter((id) => id !== landing)) expect(linked).toContain(`#${id}`);
    // The sticky bar does not cover the heading the link lands on.
    const bar = (await page.locator('[data-testid="site-nav"]').boundingBox())!;
    const heading = (await target.locator("h2").boundingBox())!;
    expect(heading.y).toBeGreaterThanOrEqual(bar.y + bar.height);
    // Following a link of the section lands on that one, its heading below the bar too.
    await target.locator('[data-testid="related"] a').first().click();
    await page.waitForURL(/#op-get-v1-banking-accounts--op-get-v1-banking-products-product-id$/);
    const next = (await page.locator("section:target h2").boundingBox())!;
    expect(next.y).toBeGreaterThanOrEqual(bar.y + bar.height);
    await expect(page.locator("section:target").textContent()).resolves.toContain("fixed_amount.amount");
    await screenshot(page, "guide-v1-to-v3-product-related");
    await page.close();
  });

  it.each([1280, 700])(
    "Redoc's menu (its search box first) stays below the bar after a jump, %i px wide",
    async (width) => {
      const page = await newPage();
      await page.setViewportSize({ width, height: 800 });
      await openReference(page, `${server.url}v2.html#tag/Banking/operation/listAccounts`);
      await page.waitForFunction(() => window.scrollY > 500);
      const bar = (await page.locator('[data-testid="site-nav"]').boundingBox())!;
      // The bar wraps onto more lines in a narrow window: the menu follows its height.
      await expect
        .poll(async () => (await page.locator(".menu-content").boundingBox())!.y)
        .toBeGreaterThanOrEqual(bar.y + bar.height);
      await screenshot(page, `reference-menu-below-bar-${width}`);
      await page.close();
    },
  );

  it("on a 390 px phone a jump leaves the operation's heading in view, and its example shows whole records", async () => {
    const page = await newPage();
    await page.setViewportSize({ width: 390, height: 800 });
    // Redoc's menu is a button there: the page is ready once the heading is.
    await page.goto(`${server.url}v3.html#tag/Consents-and-end-users/operation/listConsents`);
    const heading = page.locator("h2", { hasText: /^List consents$/ }).first();
    await heading.waitFor();
    await page.waitForFunction(() => window.scrollY > 500);
    // The bar wraps onto five lines there (some 170 px) and covered the heading a jump put 64 px down.
    await expect
      .poll(async () => {
        const bar = (await page.locator('[data-testid="site-nav"]').boundingBox())!;
        return (await heading.boundingBox())!.y - (bar.y + bar.height);
      })
      .toBeGreaterThanOrEqual(0);
    await screenshot(page, "reference-jump-390");
    // A list's records are open in a response example (each was `{ … }` at Redoc's default level).
    const section = page.locator('[data-section-id="/consents-and-end-users/listconsents"]');
    expect(await section.getByText('"arrangementId"').count()).toBeGreaterThan(0);
    await page.close();
  });

  it("the bar stays in view while the reader scrolls", async () => {
    const page = await newPage();
    await openReference(page, `${server.url}v1.html`);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForFunction(() => window.scrollY > 500);
    const bar = await page.locator('[data-testid="site-nav"]').boundingBox();
    expect(bar!.y).toBe(0);
    await page.close();
  });
});

describe("change report pages", () => {
  it.each([
    ["v1-to-v2", "is_activated"],
    ["v2-to-v3", "arrangement_id"],
    ["v1-to-v3", "expires_before"],
  ])("%s shows its breaking changes", async (name, expectedText) => {
    const report = JSON.parse(readFileSync(path.join(DOCS_DIR, "changes", `${name}.json`), "utf8"));
    expect(report.counts.breaking).toBeGreaterThan(0);
    const page = await newPage();
    await page.goto(`${server.url}changes/${name}.html`);
    const rows = page.locator("#breaking tr.change.breaking");
    await expect(rows.count()).resolves.toBe(report.counts.breaking);
    await expect(page.locator("#breaking").textContent()).resolves.toContain(expectedText);
    await expect(page.locator('[data-testid="counts"]').textContent()).resolves.toContain(
      `${report.counts.breaking} breaking`,
    );
    await screenshot(page, `changes-${name}`);
    await page.goBack().catch(() => {});
    await page.close();
  });
});

describe("from the file system", () => {
  it("the index opens and its version links lead to a rendered reference", async () => {
    const page = await newPage();
    await page.goto(pathToFileURL(path.join(DOCS_DIR, "index.html")).href);
    await page.locator('section[data-version="v2"] h2 a').click();
    await page.waitForURL("**/v2.html");
    await page.locator(`${MENU_ITEM}.menu-item-type-group`).first().waitFor();
    await expect(page.title()).resolves.toContain("(v2)");
    await page.locator('[data-testid="site-nav"]').getByText("Change reports").click();
    await page.locator('a[href="changes/v2-to-v3.html"]').first().click();
    await expect(page.locator("#breaking tr.change.breaking").count()).resolves.toBeGreaterThan(0);
    await screenshot(page, "file-changes-v2-to-v3");
    await page.close();
  });

  it.each(VERSIONS)("the %s reference renders its operations from a file: address", async (version) => {
    const page = await newPage();
    await openReference(page, pathToFileURL(path.join(DOCS_DIR, `${version}.html`)).href);
    const listed = await listedOperations(page);
    expect(listed).toHaveLength(operationsOf(version).length);
    await page.close();
  });

  it("the checks above saw the pages' own requests (the network filter was active)", () => {
    expect(loopbackRequests.some((url) => url.startsWith(server.url))).toBe(true);
    expect(loopbackRequests.some((url) => url.startsWith("file:"))).toBe(true);
  });
});
