/**
 * The sandbox's certificates: a certificate authority (made at start, or one kept from an earlier start)
 * and a server certificate signed by it.
 */
import { createPrivateKey, X509Certificate } from "node:crypto";
import { isIP } from "node:net";
import selfsigned from "selfsigned";

/** A certificate authority to sign the server certificate with: its certificate and private key (PEM). */
export interface CertificateAuthority {
  ca: string;
  caKey: string;
}

interface TlsMaterial {
  /** PEM of the certificate authority to trust (pass to `--cacert` or an Agent's `ca`). */
  ca: string;
  key: string;
  cert: string;
}

const DAY_MS = 86_400_000;
/** A server certificate's lifetime. */
const SERVER_DAYS = 30;
/** A CA's lifetime: one kept across starts (`cdas-mock --ca-file`) serves a year of them. */
const AUTHORITY_DAYS = 365;

/** The key every certificate of the sandbox is made with (selfsigned signs with a CA key of this type too). */
const KEY = { keyType: "ec", curve: "P-256", algorithm: "sha256" } as const;

export async function makeAuthority(): Promise<CertificateAuthority> {
  const authority = await selfsigned.generate([{ name: "commonName", value: "CDAS sandbox local CA" }], {
    ...KEY,
    notBeforeDate: new Date(Date.now() - 60_000),
    notAfterDate: new Date(Date.now() + AUTHORITY_DAYS * DAY_MS),
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  return { ca: authority.cert, caKey: authority.private };
}

/**
 * Why `authority` cannot sign the server certificate of a start now, in words; undefined when it can: a
 * CA certificate, its own EC P-256 key, valid for a server certificate's whole lifetime.
 */
export function authorityProblem(authority: CertificateAuthority, now = Date.now()): string | undefined {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(authority.ca);
  } catch {
    return "its certificate is not a PEM certificate";
  }
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(authority.caKey);
  } catch {
    return "its key is not a PEM private key";
  }
  if (!certificate.ca) return "its certificate is not a certificate authority's";
  if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1")
    return "its key is not an EC P-256 key";
  if (!certificate.checkPrivateKey(key)) return "its key is not the certificate's";
  if (Date.parse(certificate.validTo) < now + SERVER_DAYS * DAY_MS)
    return `it expires within ${SERVER_DAYS} days (${certificate.validTo})`;
  return undefined;
}

/** The server certificate for `host` (and loopback), signed by `authority` (a new CA if none is given). */
export async function makeCertificates(host: string, authority?: CertificateAuthority): Promise<TlsMaterial> {
  const { ca, caKey } = authority ?? (await makeAuthority());
  const names = new Set(["localhost", "127.0.0.1", "::1", host]);
  const altNames = [...names]
    .filter((name) => name && name !== "0.0.0.0" && name !== "::")
    .map((name) => (isIP(name) ? { type: 7 as const, ip: name } : { type: 2 as const, value: name }));
  const server = await selfsigned.generate([{ name: "commonName", value: "localhost" }], {
    ...KEY,
    notBeforeDate: new Date(Date.now() - 60_000),
    notAfterDate: new Date(Date.now() + SERVER_DAYS * DAY_MS),
    ca: { key: caKey, cert: ca },
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames },
    ],
  });
  return { ca, key: server.private, cert: server.cert };
}
