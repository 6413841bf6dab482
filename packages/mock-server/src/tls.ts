/** A throwaway certificate authority and a server certificate signed by it, made at start. */
import { isIP } from "node:net";
import selfsigned from "selfsigned";

interface TlsMaterial {
  /** PEM of the certificate authority to trust (pass to `--cacert` or an Agent's `ca`). */
  ca: string;
  key: string;
  cert: string;
}

export async function makeCertificates(host: string): Promise<TlsMaterial> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(Date.now() + 30 * 86_400_000);
  const authority = await selfsigned.generate([{ name: "commonName", value: "CDAS sandbox local CA" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const names = new Set(["localhost", "127.0.0.1", "::1", host]);
  const altNames = [...names]
    .filter((name) => name && name !== "0.0.0.0" && name !== "::")
    .map((name) => (isIP(name) ? { type: 7 as const, ip: name } : { type: 2 as const, value: name }));
  const server = await selfsigned.generate([{ name: "commonName", value: "localhost" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate,
    notAfterDate,
    ca: { key: authority.private, cert: authority.cert },
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames },
    ],
  });
  return { ca: authority.cert, key: server.private, cert: server.cert };
}
