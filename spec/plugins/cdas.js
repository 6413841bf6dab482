// Redocly plugin: the project's own lint rules and the bundle-time decorators (the version header pinned,
// the description every version shares).
import { readFileSync } from "node:fs";

const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const VERSION_HEADER = "x-platform-version";

/** Schema property names are snake_case, except the names listed in `allow` (documented camelCase fields). */
function PropertyCasing({ allow = [] }) {
  return {
    Schema: {
      enter(schema, { report, location }) {
        for (const name of Object.keys(schema.properties ?? {})) {
          if (SNAKE_CASE.test(name) || allow.includes(name)) continue;
          report({
            message: `Property "${name}" is not snake_case; add it to this API's allow list only if the interface names it so.`,
            location: location.child(["properties", name]).key(),
          });
        }
      },
    },
  };
}

/** Every operation documents the version header. */
function VersionHeader() {
  return {
    Operation: {
      leave(operation, ctx) {
        const params = [...(operation.parameters ?? [])].map((p) => (p.$ref ? ctx.resolve(p).node : p));
        if (!params.some((p) => p?.in === "header" && p.name?.toLowerCase() === VERSION_HEADER)) {
          ctx.report({
            message: "Operation does not document the X-Platform-Version header.",
            location: ctx.location.key(),
          });
        }
      },
    },
  };
}

// Parameters each paging style must have, and those it may have.
const PAGING_PARAMS = {
  offset: { required: ["limit", "offset"], optional: [] },
  cursor: { required: ["page[size]", "page[after]"], optional: ["page[before]"] },
  none: { required: [], optional: [] },
};
const ALL_PAGING_NAMES = Object.values(PAGING_PARAMS).flatMap((s) => [...s.required, ...s.optional]);

/**
 * List operations say how they page: `x-cdas-pagination.style` is offset, cursor or none, and the query
 * parameters match that style exactly. `items` names the key that holds the list ("" for a bare array).
 */
function ListPaging() {
  return {
    Operation: {
      leave(operation, ctx) {
        const paging = operation["x-cdas-pagination"];
        const query = [...(operation.parameters ?? [])]
          .map((p) => (p.$ref ? ctx.resolve(p).node : p))
          .filter((p) => p?.in === "query")
          .map((p) => p.name);
        if (!paging) {
          if (query.some((name) => ALL_PAGING_NAMES.includes(name))) {
            ctx.report({
              message: "Operation has paging parameters but no x-cdas-pagination.",
              location: ctx.location.key(),
            });
          }
          return;
        }
        const expected = PAGING_PARAMS[paging.style];
        if (!expected) {
          ctx.report({
            message: `x-cdas-pagination.style must be offset, cursor or none.`,
            location: ctx.location.child("x-cdas-pagination"),
          });
          return;
        }
        if (typeof paging.items !== "string") {
          ctx.report({
            message: 'x-cdas-pagination.items must name the list key ("" for a bare array).',
            location: ctx.location.child("x-cdas-pagination"),
          });
        }
        const listError = checkListKey(operation, paging.items, ctx.resolve);
        if (listError) ctx.report({ message: listError, location: ctx.location.child("x-cdas-pagination") });
        const missing = expected.required.filter((name) => !query.includes(name));
        const allowed = [...expected.required, ...expected.optional];
        const foreign = query.filter((name) => ALL_PAGING_NAMES.includes(name) && !allowed.includes(name));
        if (missing.length || foreign.length) {
          ctx.report({
            message: `Paging style "${paging.style}" does not match the parameters (missing: ${missing.join(", ") || "none"}; foreign: ${foreign.join(", ") || "none"}).`,
            location: ctx.location.child("x-cdas-pagination"),
          });
        }
      },
    },
  };
}

/** Follows $refs (relative to the file that holds them) down to a plain node. */
function deref(node, resolve) {
  let current = node;
  for (let i = 0; current?.$ref && i < 20; i++) current = resolve(current).node;
  return current;
}

/** Says what is wrong when `items` does not name an array in the 200 JSON response, else undefined. */
function checkListKey(operation, items, resolve) {
  const ok = deref(operation.responses?.["200"], resolve);
  const schema = deref(ok?.content?.["application/json"]?.schema, resolve);
  if (!schema) return "x-cdas-pagination on an operation without a 200 application/json schema.";
  const list = items === "" ? schema : deref(schema.properties?.[items], resolve);
  if (list?.type !== "array") {
    return items === ""
      ? 'x-cdas-pagination.items is "" but the 200 response is not a bare array.'
      : `x-cdas-pagination.items "${items}" is not an array property of the 200 response.`;
  }
  return undefined;
}

/** Bundle-time: narrows the shared version header to the one version this document describes. */
function PinVersionHeader({ version }) {
  return {
    Parameter: {
      leave(param) {
        if (param.in !== "header" || param.name?.toLowerCase() !== VERSION_HEADER) return;
        param.schema = { ...param.schema, enum: [version] };
        param.example = version;
      },
    },
  };
}

/** The part of `info.description` every version shares, written once. */
const SHARED_INFO_DESCRIPTION = new URL("../shared/info-description.md", import.meta.url);

/**
 * Bundle-time: `info.description` is the version's own first paragraph, then shared/info-description.md,
 * then the rest of the version's own (what it changes).
 */
function SharedInfoDescription() {
  const shared = readFileSync(SHARED_INFO_DESCRIPTION, "utf8").trim();
  return {
    Info: {
      leave(info) {
        const [first, ...rest] = (info.description ?? "").trim().split(/\n\s*\n/);
        info.description = `${[first, shared, ...rest].join("\n\n")}\n`;
      },
    },
  };
}

export default function cdasPlugin() {
  return {
    id: "cdas",
    rules: {
      oas3: {
        "property-casing": PropertyCasing,
        "version-header": VersionHeader,
        "list-paging": ListPaging,
      },
    },
    decorators: {
      oas3: { "pin-version-header": PinVersionHeader, "shared-info-description": SharedInfoDescription },
    },
  };
}
