export { default } from "@cdas/client-tooling/vitest-config";
