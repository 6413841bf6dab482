// Interface spec, "Endpoints" (every endpoint table), "Pagination rules", "Authentication", "Errors",
// "Limits" and the general rules: asserted on every bundle.
import { describe, expect, it } from "vitest";
import {
  bearerSchemeName,
  builtOn,
  component,
  deref,
  errorStatuses,
  flatten,
  inline,
  loadBundle,
  type Node,
  operation,
  operations,
  parameters,
  REQUEST_MEDIA_TYPE,
  response,
  securityOf,
  successStatuses,
  VERSIONS,
  type Version,
} from "./helpers";
import { COMPONENT_NAMES, type EndpointSpec, endpoints, PATHS, type ParamSpec } from "./interface-model";

const json = (value: unknown) => JSON.stringify(value);
const sameSchema = (doc: Node, a: unknown, b: unknown) =>
  expect(json(inline(doc, a))).toBe(json(inline(doc, b)));

/** [version, "METHOD path", endpoint] for every endpoint of every version. */
const endpointRows = (filter: (e: EndpointSpec, v: Version) => boolean = () => true) =>
  VERSIONS.flatMap((v) =>
    endpoints(v)
      .filter((e) => filter(e, v))
      .map((e) => [v, `${e.method.toUpperCase()} ${e.path}`, e] as [Version, string, EndpointSpec]),
  );

/** [version, "METHOD path", endpoint, parameter] for every tabled parameter. */
const parameterRows = VERSIONS.flatMap((v) =>
  endpoints(v).flatMap((e) =>
    (e.params ?? []).map(
      (p) =>
        [v, `${e.method.toUpperCase()} ${e.path} ${p.name}`, e, p] as [
          Version,
          string,
          EndpointSpec,
          ParamSpec,
        ],
    ),
  ),
);

const ok = (e: EndpointSpec) => (e.method === "post" && e.path === "/v1/auth/session" ? "201|200" : "200");
/** The single documented success response (a 200, or a 201 for a creation). */
function successSchema(doc: Node, e: EndpointSpec, mediaType = "application/json"): Node {
  const op = operation(doc, e.path, e.method);
  const statuses = successStatuses(op);
  expect(statuses, `${e.path}: one success response`).toHaveLength(1);
  expect(ok(e).split("|")).toContain(statuses[0]);
  const schema = response(doc, e.path, statuses[0]!, e.method)?.content?.[mediaType]?.schema;
  expect(schema, `${e.path}: ${mediaType} schema of ${statuses[0]}`).toBeDefined();
  return schema!;
}

describe("General rules", () => {
  it.each(VERSIONS)("%s servers: HTTPS only, the base address a server variable", (version) => {
    const doc = loadBundle(version);
    expect(doc.servers?.length).toBeGreaterThan(0);
    for (const server of doc.servers) {
      expect(server.url).toMatch(/^https:\/\//);
      const names = [...String(server.url).matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      expect(names.length, "the base address is a server variable").toBeGreaterThan(0);
      for (const name of names)
        expect(server.variables?.[name]?.default, `variable ${name}`).toBeTypeOf("string");
    }
  });

  it.each(VERSIONS)("%s bodies are JSON with the interface's charset, success responses JSON", (version) => {
    const doc = loadBundle(version);
    for (const { path, method, op } of operations(doc)) {
      if (op.requestBody)
        expect(Object.keys(deref(doc, op.requestBody).content), `${method} ${path}`).toEqual([
          REQUEST_MEDIA_TYPE,
        ]);
      for (const status of successStatuses(op)) {
        expect(
          Object.keys(deref(doc, op.responses[status]).content ?? {}),
          `${method} ${path} ${status}`,
        ).toEqual(["application/json"]);
      }
    }
  });

  it.each(VERSIONS)("%s the document states the transport and header rules", (version) => {
    const description = String(loadBundle(version).info.description);
    expect(description).toMatch(/HTTPS/);
    expect(description).toMatch(/plain\s+HTTP/i);
    expect(description).toMatch(/application\/json;\s+charset=UTF-8/);
  });

  it.each(VERSIONS)("%s credentials on data requests: an http bearer scheme", (version) => {
    const doc = loadBundle(version);
    const scheme = deref(doc, doc.components.securitySchemes[bearerSchemeName(doc)]);
    expect(scheme).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it.each(VERSIONS)("%s paths and methods: exactly the 25 paths, one method each", (version) => {
    const doc = loadBundle(version);
    expect(Object.keys(doc.paths).sort()).toEqual([...PATHS].sort());
    const methods = operations(doc).map(({ path, method }) => `${method} ${path}`);
    expect(methods.sort()).toEqual(
      endpoints(version)
        .map((e) => `${e.method} ${e.path}`)
        .sort(),
    );
  });

  it.each(VERSIONS)("%s components.schemas has every contract name of the brief", (version) => {
    const names = Object.keys(loadBundle(version).components?.schemas ?? {});
    const expected = [...COMPONENT_NAMES, "DepositRate", "RateTier", "Fee"];
    expect(
      expected.filter((name) => !names.includes(name)),
      "missing",
    ).toEqual([]);
  });

  it.each(VERSIONS)("%s the direct-debits path keeps its three c letters", (version) => {
    const paths = Object.keys(loadBundle(version).paths);
    expect(paths).toContain("/v1/banking/acccounts/direct-debits");
    expect(paths).not.toContain("/v1/banking/accounts/direct-debits");
  });

  it.each(VERSIONS)(
    "%s operations: camelCase unique operationId, one tag, summary, description",
    (version) => {
      const doc = loadBundle(version);
      const ids = operations(doc).map(({ op }) => op.operationId);
      expect(new Set(ids).size).toBe(ids.length);
      for (const { path, method, op } of operations(doc)) {
        expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][a-zA-Z0-9]*$/);
        expect(op.tags, `${method} ${path}`).toHaveLength(1);
        expect(op.summary, `${method} ${path}`).toBeTruthy();
        expect(op.description, `${method} ${path}`).toBeTruthy();
      }
    },
  );

  const tags: Record<string, string> = {
    "/v1/token": "token and auth",
    "/v1/auth/session": "token and auth",
    "/v1/institutions": "institutions",
    "/v1/accounts": "banking",
    "/v1/transactions": "banking",
    "/v1/scheduled-payments": "banking",
    "/v1/payees": "banking",
    "/v1/products": "banking",
    "/v1/banking/accounts": "banking",
    "/v1/banking/acccounts/direct-debits": "banking",
    "/v1/banking/payments/scheduled": "banking",
    "/v1/banking/products": "banking",
    "/v1/banking/products/{product_id}": "banking",
    "/v1/banking/transactions": "banking",
    "/v1/service-points": "energy",
    "/v1/concessions": "energy",
    "/v1/energy-balances": "energy",
    "/v1/energy/der": "energy",
    "/v1/energy/balances": "energy",
    "/v1/energy/plans": "energy",
    "/v1/identity": "identity and income",
    "/v1/income": "identity and income",
    "/v1/common/identity": "identity and income",
    "/v1/consent": "consents and end users",
    "/v1/end-users": "consents and end users",
  };
  it.each(endpointRows())("%s %s has its tag", (version, _label, e) => {
    const op = operation(loadBundle(version), e.path, e.method);
    expect(String(op.tags?.[0]).toLowerCase()).toBe(tags[e.path]);
  });
});

/** The checks every endpoint table shares: its parameters, paging extension and response envelope. */
function endpointTable(filter: (e: EndpointSpec, v: Version) => boolean) {
  const rows = endpointRows(filter);
  const withParams = rows.filter(([, , e]) => e.params !== undefined);
  if (withParams.length) {
    it.each(withParams)("%s %s has exactly the tabled parameters", (version, _label, e) => {
      const doc = loadBundle(version);
      const names = parameters(doc, e.path, e.method)
        .filter((p) => p.in === "query" || p.in === "path")
        .map((p) => `${p.in}:${p.name}`);
      const tabled = e.params!.map((p) => `${p.in ?? "query"}:${p.name}`);
      // Named on failure: a parameter in one and not the other, and where each side is written.
      expect(
        {
          inTheDocumentsOnly: names.filter((name) => !tabled.includes(name)),
          inTheInterfaceModelOnly: tabled.filter((name) => !names.includes(name)),
        },
        `${e.method.toUpperCase()} ${e.path}: its parameters in the path file and in test/interface-model.ts`,
      ).toEqual({ inTheDocumentsOnly: [], inTheInterfaceModelOnly: [] });
    });
    const params = parameterRows.filter(([v, , e]) => filter(e, v));
    it.each(params)(
      "%s %s: required flag, type, format, enum, default, maximum",
      (version, _label, e, spec) => {
        const doc = loadBundle(version);
        const param = parameters(doc, e.path, e.method).find(
          (p) => p.name === spec.name && p.in === (spec.in ?? "query"),
        );
        expect(param, "documented").toBeDefined();
        if (spec.required !== "unspecified") expect(param!.required === true, "required").toBe(spec.required);
        const flat = flatten(doc, param!.schema ?? {});
        if (spec.type) expect([...(flat.types ?? ["(unconstrained)"])], "type").toEqual([spec.type]);
        if (spec.format) expect(flat.format, "format").toBe(spec.format);
        if (spec.enum) expect([...(flat.enum ?? [])].sort(), "enum").toEqual([...spec.enum].sort());
        else expect(flat.enum, "no enum the interface does not give").toBeUndefined();
        expect(flat.default, "default").toEqual(spec.default);
        expect(flat.maximum, "maximum").toEqual(spec.maximum);
      },
    );
  }
  const paged = rows.filter(([, , e]) => e.pagination !== undefined);
  if (paged.length) {
    it.each(paged)("%s %s x-cdas-pagination", (version, _label, e) => {
      const op = operation(loadBundle(version), e.path, e.method);
      expect(op["x-cdas-pagination"]).toEqual(e.pagination);
    });
  }
  const lists = rows.filter(([, , e]) => e.list !== undefined);
  if (lists.length) {
    it.each(lists)("%s %s returns its list component", (version, _label, e) => {
      const doc = loadBundle(version);
      sameSchema(doc, successSchema(doc, e), component(doc, e.list!.component));
    });
    it.each(lists)("%s %s envelope", (version, _label, e) => {
      const doc = loadBundle(version);
      const list = e.list!;
      const envelope = flatten(doc, component(doc, list.component));
      const item = component(doc, list.item);
      if (list.key === "") {
        expect([...(envelope.types ?? [])], "bare array").toEqual(["array"]);
        sameSchema(doc, envelope.items, item);
        return;
      }
      expect([...(envelope.types ?? [])]).toEqual(["object"]);
      const keys = Object.keys(envelope.properties).sort();
      expect(envelope.required.has(list.key), `${list.key} is required`).toBe(true);
      const listFlat = flatten(doc, envelope.properties[list.key]);
      expect([...(listFlat.types ?? [])]).toEqual(["array"]);
      sameSchema(doc, listFlat.items, item);
      if (list.links === "optional") {
        expect(
          keys.filter((k) => k !== "links"),
          "nothing beside the list and links",
        ).toEqual([list.key]);
      } else {
        expect(keys, "the list next to links").toEqual([list.key, "links"].sort());
        const links = list.links === "OffsetLinks" ? "OffsetLinks" : "CursorLinks";
        sameSchema(doc, envelope.properties.links, component(doc, links));
      }
      // Summary links "may be present"; version 3 core lists have `links?`.
      if (list.links !== "CursorLinks") expect(envelope.required.has("links"), "links optional").toBe(false);
    });
  }
}

describe("Token", () => {
  endpointTable((e) => e.family === "token");

  it.each(VERSIONS)("%s POST /v1/token takes client_id and client_secret, both required", (version) => {
    const doc = loadBundle(version);
    const body = deref(doc, operation(doc, "/v1/token", "post").requestBody);
    expect(body.required).toBe(true);
    const schema = body.content[REQUEST_MEDIA_TYPE].schema;
    sameSchema(doc, schema, component(doc, "TokenRequest"));
    expect([...flatten(doc, schema).required].sort()).toEqual(["client_id", "client_secret"]);
  });

  it.each(VERSIONS)("%s POST /v1/token answers a TokenResponse", (version) => {
    const doc = loadBundle(version);
    sameSchema(doc, successSchema(doc, endpoints(version)[0]!), component(doc, "TokenResponse"));
  });
});

describe("Summary family reads", () => {
  endpointTable((e) => e.family === "summary");

  it.each(VERSIONS)("%s GET /v1/products returns ProductResponse, which holds Product", (version) => {
    const doc = loadBundle(version);
    const schema = successSchema(doc, { path: "/v1/products", method: "get", family: "summary" });
    sameSchema(doc, schema, component(doc, "ProductResponse"));
    expect(json(inline(doc, schema))).toContain(json(inline(doc, component(doc, "Product"))));
  });

  // The interface's table gives "Product (envelope: not shown)", its summary-family rule (which names
  // /v1/products) "the list is in an array under `data`; a `links` object may be present": both forms.
  it.each(VERSIONS)(
    "%s GET /v1/products: the bare Product or {data: [Product], links?}, and says why",
    (version) => {
      const doc = loadBundle(version);
      const response = component(doc, "ProductResponse");
      const forms = flatten(doc, response).branches;
      expect(response.anyOf, "anyOf: a Product without required fields matches any object").toHaveLength(2);
      expect(json(inline(doc, forms[0]))).toBe(json(inline(doc, component(doc, "Product"))));
      const envelope = flatten(doc, forms[1]);
      expect([...envelope.required]).toEqual(["data"]);
      expect(Object.keys(envelope.properties).sort()).toEqual(["data", "links"]);
      expect(json(inline(doc, envelope.properties.data?.items))).toBe(
        json(inline(doc, component(doc, "Product"))),
      );
      expect(String(response.description)).toMatch(/envelope: not shown/);
      expect(String(response.description)).toMatch(/array under `data`/);
    },
  );

  it.each(VERSIONS)(
    "%s transactions read: newest first, about 90 days without dates, inclusive dates",
    (version) => {
      const doc = loadBundle(version);
      const description = String(operation(doc, "/v1/transactions").description);
      expect(description).toMatch(/newest\s+first|reverse\s+chronological/i);
      expect(description).toMatch(/90\s+days/);
      for (const name of ["from_date", "to_date"]) {
        expect(parameters(doc, "/v1/transactions").find((p) => p.name === name)?.description, name).toMatch(
          /inclusive/i,
        );
      }
    },
  );
});

describe("Institutions", () => {
  endpointTable((e) => e.family === "institutions");
});

describe("Auth session", () => {
  const auth: EndpointSpec = { path: "/v1/auth/session", method: "post", family: "auth" };
  endpointTable((e) => e.family === "auth");

  it.each(VERSIONS)(
    "%s body: cancel_uri, end_user_id, institution_id, redirect_uri (AuthSessionRequest)",
    (version) => {
      const doc = loadBundle(version);
      const body = deref(doc, operation(doc, auth.path, "post").requestBody);
      sameSchema(doc, body.content[REQUEST_MEDIA_TYPE].schema, component(doc, "AuthSessionRequest"));
    },
  );
  it.each(VERSIONS)("%s response: the AuthSession object", (version) => {
    const doc = loadBundle(version);
    sameSchema(doc, successSchema(doc, auth), component(doc, "AuthSession"));
  });
  it.each(VERSIONS)("%s three error responses documented", (version) => {
    const doc = loadBundle(version);
    expect(errorStatuses(operation(doc, auth.path, "post"))).toHaveLength(3);
  });
});

describe("Detailed family reads", () => {
  endpointTable((e) => e.family === "detailed");

  it.each(endpointRows((e) => e.path === "/v1/energy/plans"))(
    "%s %s: exactly one of retailer_id and institution_id, neither required alone",
    (version, _label, e) => {
      const doc = loadBundle(version);
      for (const name of ["retailer_id", "institution_id"]) {
        const param = parameters(doc, e.path).find((p) => p.name === name);
        expect(param?.required ?? false, name).toBe(false);
        expect(param?.description, `${name} says the two are exclusive`).toMatch(
          /retailer_id|institution_id/,
        );
      }
    },
  );

  it.each(endpointRows((e) => e.path === "/v1/energy/plans"))(
    "%s %s: a request paired by name with each response example sends exactly one of the two",
    (version, _label, e) => {
      const doc = loadBundle(version);
      const alternatives = parameters(doc, e.path).filter((p) =>
        ["retailer_id", "institution_id"].includes(p.name),
      );
      const ok = deref(doc, operation(doc, e.path).responses["200"]);
      const names = Object.keys(ok.content["application/json"].examples);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        const sent = alternatives.filter((p) => p.examples?.[name] !== undefined).map((p) => p.name);
        expect(sent, `the ${name} example`).toHaveLength(1);
      }
    },
  );

  it.each(VERSIONS)(
    "%s energy plans: retailer identifiers are recommended over institution identifiers",
    (version) => {
      const doc = loadBundle(version);
      const retailer = parameters(doc, "/v1/energy/plans").find((p) => p.name === "retailer_id");
      const text = `${operation(doc, "/v1/energy/plans").description} ${retailer?.description}`;
      expect(text).toMatch(/recommended/i);
    },
  );

  it.each(VERSIONS)("%s GET /v1/banking/products/{product_id} returns {product}", (version) => {
    const doc = loadBundle(version);
    const schema = successSchema(doc, {
      path: "/v1/banking/products/{product_id}",
      method: "get",
      family: "detailed",
    });
    sameSchema(doc, schema, component(doc, "BankingProductResponse"));
    const flat = flatten(doc, schema);
    expect(Object.keys(flat.properties)).toEqual(["product"]);
    expect([...flat.required]).toEqual(["product"]);
    sameSchema(doc, flat.properties.product, component(doc, "BankingProductDetail"));
  });

  it.each(VERSIONS)(
    "%s GET /v1/banking/transactions returns BankingTransactionList of BankingTransaction",
    (version) => {
      const doc = loadBundle(version);
      const schema = successSchema(doc, {
        path: "/v1/banking/transactions",
        method: "get",
        family: "detailed",
      });
      sameSchema(doc, schema, component(doc, "BankingTransactionList"));
      expect(json(inline(doc, schema))).toContain(json(inline(doc, component(doc, "BankingTransaction"))));
    },
  );
});

describe("Core resource lists", () => {
  endpointTable((e) => e.family === "core");

  it.each(VERSIONS)("%s GET /v1/common/identity returns CommonIdentityResponse", (version) => {
    const doc = loadBundle(version);
    const schema = successSchema(doc, { path: "/v1/common/identity", method: "get", family: "core" });
    sameSchema(doc, schema, component(doc, "CommonIdentityResponse"));
  });
});

describe("Pagination rules", () => {
  const cursorLists = endpointRows((e) => e.pagination?.style === "cursor");
  it.each(cursorLists)(
    "%s %s (cursor): page[after] forward, page[size] at most 1000, none required",
    (version, _l, e) => {
      const params = parameters(loadBundle(version), e.path);
      const byName = Object.fromEntries(params.map((p) => [p.name, p]));
      expect(byName["page[after]"], "page[after]").toBeDefined();
      expect(byName["page[size]"]?.schema?.maximum).toBe(1000);
      for (const name of ["page[after]", "page[before]", "page[size]"])
        expect(byName[name]?.required ?? false).toBe(false);
    },
  );

  it.each(endpointRows((e) => e.family === "detailed" && e.pagination?.style === "cursor"))(
    "%s %s (detailed): page[before] backward as well, links holds next and prev",
    (version, _l, e) => {
      const doc = loadBundle(version);
      expect(parameters(doc, e.path).map((p) => p.name)).toContain("page[before]");
      const links = flatten(doc, component(doc, e.list!.component)).properties.links;
      expect(Object.keys(flatten(doc, links).properties).sort()).toEqual(["next", "prev"]);
    },
  );

  it.each(VERSIONS)("5. %s both statements about the paging style are given as such", (version) => {
    const description = String(loadBundle(version).info.description);
    expect(description).toMatch(/limit\s+and\s+offset/i);
    expect(description).toMatch(/cursor/i);
  });

  it.each(VERSIONS)("%s an absent links.next marks the end: next is never required", (version) => {
    const doc = loadBundle(version);
    for (const name of ["OffsetLinks", "CursorLinks"]) {
      expect([...flatten(doc, component(doc, name)).required], name).toEqual([]);
    }
  });

  it.each(endpointRows((e) => e.pagination?.style === "offset"))(
    "%s %s (offset): limit default 25, offset, links.next",
    (version, _l, e) => {
      const doc = loadBundle(version);
      const byName = Object.fromEntries(parameters(doc, e.path).map((p) => [p.name, p]));
      expect(byName.limit?.schema?.default).toBe(25);
      expect(byName.offset?.schema?.type).toBe("integer");
      const links = flatten(doc, component(doc, e.list!.component)).properties.links;
      expect(Object.keys(flatten(doc, links).properties)).toContain("next");
    },
  );

  it.each(
    VERSIONS.filter((v) => builtOn(v, "v3")).flatMap((v) =>
      ["/v1/consent", "/v1/end-users"].map((p) => [v, p]),
    ),
  )("%s %s: paging is opt-in and links are optional", (version, path) => {
    const doc = loadBundle(version as Version);
    for (const p of parameters(doc, path!).filter((p) => p.in === "query"))
      expect(p.required ?? false).toBe(false);
    const list = successSchema(doc, { path: path!, method: "get", family: "core" });
    expect(flatten(doc, list).required.has("links")).toBe(false);
  });
});

describe("Authentication", () => {
  it.each(VERSIONS)("%s the token operation needs no credentials header (security: [])", (version) => {
    const doc = loadBundle(version);
    expect(operation(doc, "/v1/token", "post").security).toEqual([]);
  });

  it.each(endpointRows((e) => !["/v1/token", "/v1/institutions"].includes(e.path)))(
    "%s %s requires the bearer token",
    (version, _l, e) => {
      const doc = loadBundle(version);
      const security = securityOf(doc, operation(doc, e.path, e.method));
      expect(security.length).toBeGreaterThan(0);
      for (const requirement of security) expect(Object.keys(requirement)).toContain(bearerSchemeName(doc));
    },
  );

  it.each(VERSIONS)(
    "5-7. %s no refresh tokens (401 means renew); the secret stays server-side",
    (version) => {
      const doc = loadBundle(version);
      const scheme = JSON.stringify(deref(doc, doc.components.securitySchemes[bearerSchemeName(doc)]));
      expect(scheme).toMatch(/refresh/i);
      expect(scheme).toMatch(/401/);
      expect(String(doc.info.description)).toMatch(/server-side/i);
    },
  );

  it.each(VERSIONS)("%s auth session creation requires the scope api:user.write", (version) => {
    const doc = loadBundle(version);
    const bearer = bearerSchemeName(doc);
    const security = securityOf(doc, operation(doc, "/v1/auth/session", "post"));
    expect(security.length).toBeGreaterThan(0);
    for (const requirement of security) expect(requirement[bearer]).toContain("api:user.write");
  });

  it.each(VERSIONS)("%s no scope other than api:user.write is invented", (version) => {
    const doc = loadBundle(version);
    const scopes = operations(doc).flatMap(({ op }) =>
      securityOf(doc, op).flatMap((r) => Object.values(r).flat()),
    );
    expect([...new Set(scopes)].filter((s) => s !== "api:user.write")).toEqual([]);
  });

  it.each(VERSIONS)("%s institutions: the bearer header is an open question (optional)", (version) => {
    const doc = loadBundle(version);
    const op = operation(doc, "/v1/institutions");
    const security = securityOf(doc, op).map((r) => Object.keys(r).sort().join("+"));
    expect(security.sort()).toEqual(["", bearerSchemeName(doc)].sort());
    expect(op.description).toMatch(/bearer/i);
  });

  it.each(endpointRows((e) => e.path !== "/v1/token"))(
    "%s %s documents 401 (an expired token yields 401)",
    (version, _l, e) => {
      const op = operation(loadBundle(version), e.path, e.method);
      expect(Object.keys(op.responses)).toContain("401");
    },
  );
});

describe("Events", () => {
  it.each(VERSIONS)("%s webhooks are only a concept: no webhooks or callbacks are invented", (version) => {
    const doc = loadBundle(version);
    expect(doc.webhooks).toBeUndefined();
    for (const { path, method, op } of operations(doc))
      expect(op.callbacks, `${method} ${path}`).toBeUndefined();
    expect(String(doc.info.description)).toMatch(/webhook/i);
  });
});

describe("Named but not shown", () => {
  // Transcribed from the interface: "Endpoints known only by name (...): paths, parameters and shapes
  // not shown", the resources whose fields are not shown, and "Transitions: not shown".
  const NAMED_ONLY = [
    "delete end user",
    "get institution by id",
    "list consents in the banking section",
    "list energy accounts",
    "get billing transactions",
    "list invoices",
    "list payment schedules",
    "get energy plan details",
    "detailed transactions and balances",
    "handle accounts",
  ];
  const FIELDS_NOT_SHOWN = ["energy accounts", "billing", "invoices", "bills", "payment schedules"];

  it.each(VERSIONS)(
    "%s says which operations and fields the interface names without showing, and that transitions are not documented",
    (version) => {
      const description = String(loadBundle(version).info.description).replace(/\s+/g, " ");
      for (const name of [...NAMED_ONLY, ...FIELDS_NOT_SHOWN]) expect(description, name).toContain(name);
      expect(description).toMatch(/not documented by the interface:\*\*[^*]*transitions/i);
    },
  );

  it.each(VERSIONS)(
    "%s says why the detailed banking transactions and energy balances it models sit beside the named-only list",
    (version) => {
      const doc = loadBundle(version);
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining(["/v1/banking/transactions", "/v1/energy/balances"]),
      );
      const description = String(doc.info.description).replace(/\s+/g, " ");
      const namedOnly = description.slice(
        description.indexOf("Named by the interface, not in this document"),
      );
      expect(namedOnly).toContain("`GET /banking/transactions`");
      expect(namedOnly).toContain("`GET /v1/energy/balances`");
    },
  );
});

describe("Errors", () => {
  const SHORT = ["id", "message", "name"];
  const EXTENDED = ["fault", "id", "message", "name", "temporary", "timeout"];

  /** The media types and property sets of an operation's error responses. */
  function errorShapes(version: Version, e: EndpointSpec) {
    const doc = loadBundle(version);
    const op = operation(doc, e.path, e.method);
    return errorStatuses(op).map((status) => {
      const content = deref(doc, op.responses[status]).content ?? {};
      return {
        status,
        mediaTypes: Object.keys(content),
        properties: Object.values(content).map((media) =>
          Object.keys(flatten(doc, (media as Node).schema).properties).sort(),
        ),
      };
    });
  }

  const isV3Core = (e: EndpointSpec, v: Version) =>
    builtOn(v, "v3") && ["/v1/consent", "/v1/end-users"].includes(e.path);
  const isOldCore = (e: EndpointSpec, v: Version) =>
    !builtOn(v, "v3") && ["/v1/consent", "/v1/end-users"].includes(e.path);

  it.each(endpointRows((e, v) => e.family === "detailed" || isV3Core(e, v)))(
    "%s %s: short shape {id, message, name}, JSON",
    (version, _l, e) => {
      const shapes = errorShapes(version, e);
      expect(shapes.length).toBeGreaterThan(0);
      for (const shape of shapes) {
        expect(shape.mediaTypes, shape.status).toEqual(["application/json"]);
        expect(shape.properties, shape.status).toEqual([SHORT]);
      }
    },
  );

  it.each(endpointRows((e, v) => e.family === "institutions" || e.family === "auth" || isOldCore(e, v)))(
    "%s %s: extended shape (fault, temporary, timeout)",
    (version, _l, e) => {
      const shapes = errorShapes(version, e);
      expect(shapes.length).toBeGreaterThan(0);
      for (const shape of shapes)
        for (const properties of shape.properties) expect(properties, shape.status).toEqual(EXTENDED);
    },
  );

  it.each(endpointRows((e) => e.family === "institutions" || e.family === "auth"))(
    "%s %s: errors carry application/vnd.goa.error",
    (version, _l, e) => {
      for (const shape of errorShapes(version, e))
        expect(shape.mediaTypes, shape.status).toEqual(["application/vnd.goa.error"]);
    },
  );

  it.each(endpointRows((e) => e.family === "summary" || e.family === "token"))(
    "%s %s: shape not documented, so UndocumentedError (either documented shape)",
    (version, _l, e) => {
      const doc = loadBundle(version);
      const op = operation(doc, e.path, e.method);
      expect(errorStatuses(op).length).toBeGreaterThan(0);
      for (const status of errorStatuses(op)) {
        for (const media of Object.values(deref(doc, op.responses[status]).content ?? {})) {
          sameSchema(doc, (media as Node).schema, component(doc, "UndocumentedError"));
        }
      }
    },
  );

  it.each(endpointRows(isV3Core))("%s %s: 400 and 500 documented", (version, _l, e) => {
    const statuses = errorShapes(version, e).map((s) => s.status);
    expect(statuses).toContain("400");
    expect(statuses).toContain("500");
  });

  it.each(VERSIONS)("3. %s the error names seen are given, the list stays open", (version) => {
    const doc = loadBundle(version);
    for (const shape of ["ShortError", "ExtendedError"]) {
      const name = flatten(doc, component(doc, shape)).properties.name;
      expect(flatten(doc, name).enum, shape).toBeUndefined();
      const text = JSON.stringify(inline(doc, name));
      for (const seen of ["bad_request", "invalid_field_type", "bad request"])
        expect(text, shape).toContain(seen);
    }
  });

  it.each(VERSIONS)("%s ShortError and ExtendedError are the two shapes, every field present", (version) => {
    const doc = loadBundle(version);
    const short = flatten(doc, component(doc, "ShortError"));
    const extended = flatten(doc, component(doc, "ExtendedError"));
    expect(Object.keys(short.properties).sort()).toEqual(SHORT);
    expect(Object.keys(extended.properties).sort()).toEqual(EXTENDED);
    expect([...short.required].sort()).toEqual(SHORT);
    expect([...extended.required].sort()).toEqual(EXTENDED);
  });

  it.each(VERSIONS)("%s UndocumentedError is one of the two documented shapes, nothing else", (version) => {
    const doc = loadBundle(version);
    const undocumented = component(doc, "UndocumentedError");
    expect(undocumented.anyOf.map((member: Node) => member.$ref).sort()).toEqual([
      "#/components/schemas/ExtendedError",
      "#/components/schemas/ShortError",
    ]);
    expect(Object.keys(undocumented).sort()).toEqual(["anyOf", "description"]);
  });
});

describe("Limits", () => {
  it.each(VERSIONS)("%s rate limits are not shown, and the document says so", (version) => {
    expect(String(loadBundle(version).info.description)).toMatch(/rate\s+limits/i);
  });

  it.each(endpointRows((e) => e.pagination?.style === "cursor"))(
    "%s %s: page[size] maximum 1000",
    (version, _l, e) => {
      const size = parameters(loadBundle(version), e.path).find((p) => p.name === "page[size]");
      expect(size?.schema?.maximum).toBe(1000);
      expect(size?.schema?.type).toBe("integer");
    },
  );

  it.each(
    VERSIONS.flatMap((v) => ["/v1/accounts", "/v1/transactions"].map((p) => [v, p] as [Version, string])),
  )("%s %s: limit default 25", (version, path) => {
    const limit = parameters(loadBundle(version), path).find((p) => p.name === "limit");
    expect(limit?.schema?.default).toBe(25);
  });

  it.each(VERSIONS)(
    "%s token lifetime: both given lifetimes (3600 and 900 seconds) are stated",
    (version) => {
      const doc = loadBundle(version);
      const text = json(
        [operation(doc, "/v1/token", "post"), component(doc, "TokenResponse")].map((n) => inline(doc, n)),
      );
      expect(text).toContain("3600");
      expect(text).toContain("900");
    },
  );

  it.each(VERSIONS)("%s token lifetime: expires_in seconds (integer) in both forms", (version) => {
    const doc = loadBundle(version);
    for (const name of ["TokenResponseAccessToken", "TokenResponseToken"]) {
      const flat = flatten(doc, flatten(doc, component(doc, name)).properties.expires_in);
      expect([...(flat.types ?? [])], name).toEqual(["integer"]);
    }
  });
});
