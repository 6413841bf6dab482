export { CdasApiError, CdasError, isCdasApiError, isCdasError } from "./errors.js";
