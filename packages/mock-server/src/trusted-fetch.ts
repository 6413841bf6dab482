/**
 * A `fetch` that trusts one CA, in each runtime's own way: undici's `dispatcher` with Node's global
 * fetch, `tls.ca` with Bun's, `Deno.createHttpClient` with Deno's. The standard signature, so it can
 * be given to the SDK (`createSdk({ fetch })`) or to openapi-fetch as is.
 */

/** The standard fetch signature. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface TrustedFetch {
  fetch: Fetch;
  /** Releases the connections kept for this fetch. */
  close(): Promise<void>;
}

interface DenoHttpClient {
  close(): void;
}
interface RuntimeGlobals {
  Bun?: unknown;
  Deno?: { createHttpClient(options: { caCerts: string[] }): DenoHttpClient };
}

/**
 * A fetch trusting `ca` (PEM) besides the usual authorities; with `ca` null, the global fetch. Once
 * closed it fails as fetch fails, saying why (rather than each runtime's "client destroyed" or "bad
 * resource ID"). Closing it again is closing it once (a test's teardown often closes twice).
 */
export async function trustingFetch(ca: string | null): Promise<TrustedFetch> {
  const trusted = await runtimeTrustingFetch(ca);
  let closing: Promise<void> | undefined;
  let closed = false;
  return {
    fetch: (input, init) =>
      closed
        ? Promise.reject(
            new TypeError("fetch failed", {
              cause: new Error("this fetch was closed (the sandbox's close() releases its connections)"),
            }),
          )
        : trusted.fetch(input, init),
    close: () => {
      closed = true;
      closing ??= (async () => {
        await trusted.close();
      })();
      return closing;
    },
  };
}

async function runtimeTrustingFetch(ca: string | null): Promise<TrustedFetch> {
  const runtime = globalThis as unknown as RuntimeGlobals;
  if (ca === null) return { fetch: (input, init) => globalThis.fetch(input, init), close: async () => {} };
  if (runtime.Bun) {
    return {
      fetch: (input, init) => globalThis.fetch(input, { ...init, tls: { ca } } as RequestInit),
      close: async () => {},
    };
  }
  if (runtime.Deno) {
    const client = runtime.Deno.createHttpClient({ caCerts: [ca] });
    return {
      fetch: (input, init) => globalThis.fetch(input, { ...init, client } as RequestInit),
      close: async () => client.close(),
    };
  }
  // Loaded only on Node, where it is the documented way to give the global fetch a CA.
  const { Agent } = await import("undici");
  const dispatcher = new Agent({ connect: { ca } });
  return {
    fetch: (input, init) => globalThis.fetch(input, { ...init, dispatcher } as RequestInit),
    close: () => dispatcher.close(),
  };
}
