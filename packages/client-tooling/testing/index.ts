export { describeEveryOperation } from "./every-operation.js";
export { startRecordingServer } from "./loopback-server.js";
export {
  browserBundleGzipBytes,
  describePackageChecks,
  describePublishedPackage,
  type LoadCheck,
} from "./package-checks.js";
export { sampleSchema } from "./sample-values.js";
