/** Issued bearer tokens: random, expiring, each with the scopes of the client it was issued to. */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { ExpiringMap } from "./expiring.js";

/** Issued tokens: this prefix, then random bytes in base64url. */
const TOKEN_PREFIX = "cdas_";
const TOKEN_BYTES = 24;
/** The form of an issued token, wherever it shows (error messages redact it). */
export const ISSUED_TOKEN = new RegExp(`${TOKEN_PREFIX}[A-Za-z0-9_-]{${(TOKEN_BYTES / 3) * 4}}`, "g");

export interface Client {
  clientId: string;
  /** Kept out of enumeration and inspection; compared in constant time. */
  readonly secret: string;
  scopes: readonly string[];
}

type TokenCheck =
  | { ok: true; scopes: ReadonlySet<string> }
  | { ok: false; reason: "missing" | "invalid" | "expired" };

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}

export class TokenStore {
  /** Scopes by issued token; past `maxLiveTokens`, issuing one drops the oldest. */
  readonly tokens: ExpiringMap<ReadonlySet<string>>;

  constructor(
    private readonly clients: readonly Client[],
    private readonly ttlSeconds: number,
    private readonly now: () => number,
    maxLiveTokens: number,
  ) {
    this.tokens = new ExpiringMap(now, maxLiveTokens);
  }

  /** The clients' secrets, which error messages never repeat. */
  get secrets(): string[] {
    return this.clients.map((client) => client.secret);
  }

  /** The client these credentials belong to, or undefined. */
  authenticate(clientId: string, clientSecret: string): Client | undefined {
    return this.clients.find(
      (client) => sameText(client.clientId, clientId) && sameText(client.secret, clientSecret),
    );
  }

  issue(client: Client): { token: string; expiresIn: number } {
    const token = `${TOKEN_PREFIX}${randomBytes(TOKEN_BYTES).toString("base64url")}`;
    this.tokens.set(token, new Set(client.scopes), this.now() + this.ttlSeconds * 1000);
    return { token, expiresIn: this.ttlSeconds };
  }

  /** Checks an `Authorization` header value. */
  check(header: string | undefined): TokenCheck {
    if (!header) return { ok: false, reason: "missing" };
    // The usual form, `Bearer <token>`, is looked up directly; other spellings go through the pattern.
    let issued = header.startsWith("Bearer ") ? this.tokens.lookup(header.slice(7)) : undefined;
    if (!issued) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match) return { ok: false, reason: "invalid" };
      issued = this.tokens.lookup(match[1]!);
    }
    if (!issued) return { ok: false, reason: "invalid" };
    if (issued.expired) return { ok: false, reason: "expired" };
    return { ok: true, scopes: issued.value };
  }
}
