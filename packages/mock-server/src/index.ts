export { DEFAULT_TRANSACTION_WINDOW_DAYS } from "./handlers.js";
export {
  type ApiVersion,
  type ClientCredentials,
  type MockServer,
  type MockServerOptions,
  type RequestLogEntry,
  type SandboxLimits,
  type SandboxSdkOptions,
  SUPPORTED_VERSIONS,
  startMockServer,
  type TransportTimeouts,
} from "./server.js";
export type { CertificateAuthority } from "./tls.js";
export { type Fetch, type TrustedFetch, trustingFetch } from "./trusted-fetch.js";
