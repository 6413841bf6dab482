// The size users download: a package's dist/index.js bundled for a browser, minified and gzipped. Shared by
// the package checks (a budget) and the SDK's bench (the figure it prints).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

/** Bytes of dist/index.js bundled for a browser (a Node built-in fails the build), minified and gzipped. */
export async function browserBundleGzipBytes(packageDir, external = []) {
  const bundled = await build({
    entryPoints: [join(packageDir, "dist/index.js")],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
    external,
  });
  return gzipSync(bundled.outputFiles[0].contents, { level: 9 }).length;
}

/** Bytes of the package's own code alone: bundled as above with every dependency in its package.json left out. */
export function ownCodeGzipBytes(packageDir) {
  const { dependencies = {} } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  return browserBundleGzipBytes(packageDir, Object.keys(dependencies));
}
