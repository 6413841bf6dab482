export { describeClient } from "./client-behaviour.js";
export { startRecordingServer } from "./loopback-server.js";
export {
  browserBundleGzipBytes,
  describePackageChecks,
  describePublishedPackage,
  type LoadCheck,
  ownCodeGzipBytes,
} from "./package-checks.js";
export type { ErrorMessages, OpenPaths } from "./types.js";
