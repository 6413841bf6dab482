// A real HTTP server on 127.0.0.1 that records each request and answers with the response it is given.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path exactly as received, without the query. */
  path: string;
  /** Query exactly as received, without the `?` ("" when absent). */
  rawQuery: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface CannedResponse {
  status: number;
  contentType?: string;
  body?: string;
}

export interface RecordingServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Sets the response given to the requests that follow. */
  respondWith(response: CannedResponse): void;
  close(): Promise<void>;
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  let response: CannedResponse = { status: 204 };
  const server = createServer((request, reply) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const url = request.url ?? "";
      const queryStart = url.indexOf("?");
      requests.push({
        method: request.method ?? "",
        path: queryStart === -1 ? url : url.slice(0, queryStart),
        rawQuery: queryStart === -1 ? "" : url.slice(queryStart + 1),
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      reply.writeHead(response.status, response.contentType ? { "content-type": response.contentType } : {});
      reply.end(response.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    respondWith(next) {
      response = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
