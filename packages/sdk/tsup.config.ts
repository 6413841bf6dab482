// The same build as the client packages: ESM and CommonJS with declarations, no Node built-in.
export { default } from "@cdas/client-tooling/tsup-config";
