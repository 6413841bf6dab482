export { DEFAULT_TRANSACTION_WINDOW_DAYS } from "./handlers.js";
export {
  type ApiVersion,
  type ClientCredentials,
  type MockServer,
  type MockServerOptions,
  type RequestLogEntry,
  SUPPORTED_VERSIONS,
  startMockServer,
} from "./server.js";
