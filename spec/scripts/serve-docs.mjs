#!/usr/bin/env node
// pnpm docs [--port 4020] [--host 127.0.0.1]: serves spec/dist/docs on loopback and prints the address.
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { SPEC_DIR } from "./lib/load-spec.mjs";
import { scriptArgs } from "./lib/script-args.mjs";
import { startStaticServer } from "./lib/static-server.mjs";

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);
const USAGE = "usage: pnpm docs [--port 4020] [--host 127.0.0.1] [--root spec/dist/docs]";
let values;
try {
  ({ values } = parseArgs({
    args: scriptArgs(),
    options: {
      port: { type: "string", default: process.env.PORT ?? "4020" },
      host: { type: "string", default: "127.0.0.1" },
      root: { type: "string", default: path.join(SPEC_DIR, "dist", "docs") },
    },
  }));
} catch (error) {
  process.stderr.write(`docs: ${error.message}\n${USAGE}\n`);
  process.exit(2);
}

if (!LOOPBACK.has(values.host)) {
  process.stderr.write(`docs: refusing to listen on ${values.host}; use a loopback address.\n`);
  process.exit(2);
}
if (!existsSync(path.join(values.root, "index.html"))) {
  process.stderr.write(
    `docs: ${values.root}/index.html is missing; run \`pnpm --filter @cdas/spec build\` first.\n`,
  );
  process.exit(1);
}
const { url } = await startStaticServer({ root: values.root, host: values.host, port: Number(values.port) });
process.stdout.write(`CDAS API docs: ${url} (serving ${values.root}; Ctrl+C to stop)\n`);
