// Benchmark helper: a bare Node server that answers every request with one fixed body of the sandbox's
// size, and does nothing else. Its rate is the ceiling of Node's HTTP stack (and TLS) on this machine,
// against which the sandbox's rate is reported. Prints one JSON line with its address (and CA).
import { createServer as createHttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import selfsigned from "selfsigned";

const plain = process.argv.includes("--plain");
const bytes = Number(process.argv[process.argv.indexOf("--bytes") + 1]);
if (!Number.isSafeInteger(bytes) || bytes < 2) throw new TypeError("bare.mjs needs --bytes <n>");
const body = `"${"x".repeat(bytes - 2)}"`;
const answer = (_request, response) => {
  response.writeHead(200, { "content-type": "application/json", "content-length": bytes });
  response.end(body);
};
let tls = null;
if (!plain) {
  const now = Date.now();
  const made = await selfsigned.generate([{ name: "commonName", value: "127.0.0.1" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate: new Date(now - 60_000),
    notAfterDate: new Date(now + 86_400_000),
    extensions: [{ name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] }],
  });
  tls = { key: made.private, cert: made.cert };
}
const server = tls ? createHttpsServer(tls, answer) : createHttpServer(answer);
server.keepAliveTimeout = 72_000;
server.listen(0, "127.0.0.1", () => {
  const url = `${tls ? "https" : "http"}://127.0.0.1:${server.address().port}`;
  process.stdout.write(`${JSON.stringify({ url, ca: tls?.cert ?? null })}\n`);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
