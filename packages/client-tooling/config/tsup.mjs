// Build of each published TypeScript package (clients, SDK): ESM and CommonJS with declarations for both, no Node built-in allowed.
import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  // The shared runtime (@cdas/client-tooling, private) is bundled: its types too, or the declarations
  // would import a package users never install.
  dts: { resolve: [/^@cdas\/client-tooling/] },
  clean: true,
  sourcemap: true,
  target: "es2022",
  // "neutral" resolves no Node built-in, so importing one fails the build.
  platform: "neutral",
});
