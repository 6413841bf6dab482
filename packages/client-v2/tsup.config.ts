export { default } from "@cdas/client-tooling/tsup-config";
