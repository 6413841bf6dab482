// Benchmark helper: starts the sandbox (from dist) in this process and prints, as one JSON line, its
// address, CA, a token and the id of the end user whose transactions are read.
import { Agent, request } from "undici";
import { startMockServer } from "../dist/index.js";

const plain = process.argv.includes("--plain");
const server = await startMockServer({ tls: !plain, tokenTtlSeconds: 86_400 });
const dispatcher = new Agent({ connect: server.ca ? { ca: server.ca } : {} });
const tokenResponse = await request(`${server.url}/v1/token`, {
  method: "POST",
  dispatcher,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ client_id: server.clientId, client_secret: server.clientSecret }),
});
const { access_token: token } = await tokenResponse.body.json();
const users = await request(`${server.url}/v1/end-users`, {
  dispatcher,
  headers: { authorization: `Bearer ${token}`, "x-platform-version": "v2" },
});
const [person] = await users.body.json();
await dispatcher.close();
process.stdout.write(`${JSON.stringify({ url: server.url, ca: server.ca, token, endUserId: person.id })}\n`);
process.once("SIGTERM", () => server.close().then(() => process.exit(0)));
