#!/usr/bin/env node
// cdas-docs [--port 4020] [--host 127.0.0.1]: serves the package's rendered docs (dist/docs: the reference
// of each version, the migration guides and change reports) on loopback and prints the address. Shipped
// as @cdas/spec's bin (`npx cdas-docs`); in a clone, `pnpm run docs`.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { scriptArgs } from "./script-args.mjs";
import { startStaticServer } from "./static-server.mjs";

const DOCS_DIR = fileURLToPath(new URL("../dist/docs", import.meta.url));

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);
const USAGE =
  "usage: cdas-docs [--port 4020] [--host 127.0.0.1] [--root <folder>] (in a clone: pnpm run docs -- ...)";
let values;
try {
  ({ values } = parseArgs({
    args: scriptArgs(),
    options: {
      port: { type: "string", default: process.env.PORT ?? "4020" },
      host: { type: "string", default: "127.0.0.1" },
      root: { type: "string", default: DOCS_DIR },
      help: { type: "boolean", short: "h" },
    },
  }));
} catch (error) {
  process.stderr.write(`cdas-docs: ${error.message}\n${USAGE}\n`);
  process.exit(2);
}
if (values.help) {
  process.stdout.write(
    `${USAGE}\nServes the rendered docs (the reference of each version, the migration guides, the change reports) on loopback and prints the address.\n`,
  );
  process.exit(0);
}

const port = Number(values.port);
if (!/^\d+$/.test(values.port) || port > 65535) {
  process.stderr.write(
    `cdas-docs: --port ${values.port} is not a port (0 to 65535; 0 picks a free one)\n${USAGE}\n`,
  );
  process.exit(2);
}
if (!LOOPBACK.has(values.host)) {
  process.stderr.write(`cdas-docs: refusing to listen on ${values.host}; use a loopback address.\n`);
  process.exit(2);
}
if (!existsSync(path.join(values.root, "index.html"))) {
  process.stderr.write(
    `cdas-docs: ${values.root}/index.html is missing; in a clone, run \`pnpm --filter @cdas/spec build\` first.\n`,
  );
  process.exit(1);
}
try {
  const { url } = await startStaticServer({ root: values.root, host: values.host, port });
  process.stdout.write(`CDAS API docs: ${url} (serving ${values.root}; Ctrl+C to stop)\n`);
} catch (error) {
  // A port in use (EADDRINUSE) or not ours to take (EACCES): said in a line, not a stack.
  process.stderr.write(
    `cdas-docs: cannot listen on ${values.host}:${port} (${error.code ?? error.message})\n`,
  );
  process.exit(1);
}
