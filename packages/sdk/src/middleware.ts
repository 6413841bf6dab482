/** openapi-fetch middleware: the headers every request carries, and client_id on the institutions list. */
import type { Middleware } from "openapi-fetch";
import { JSON_MEDIA_TYPE } from "./transport.js";

export function headersMiddleware(options: {
  version: string;
  userAgent: string;
  clientId: string;
}): Middleware {
  const { version, userAgent, clientId } = options;
  return {
    onRequest({ request, schemaPath }) {
      const headers = request.headers;
      headers.set("x-platform-version", version);
      headers.set("accept", JSON_MEDIA_TYPE);
      headers.set("user-agent", userAgent);
      if (request.body !== null) headers.set("content-type", JSON_MEDIA_TYPE);
      if (schemaPath === "/v1/institutions") {
        const url = new URL(request.url);
        if (!url.searchParams.get("client_id")) {
          url.searchParams.set("client_id", clientId);
          return new Request(url, request);
        }
      }
      return undefined;
    },
  };
}
