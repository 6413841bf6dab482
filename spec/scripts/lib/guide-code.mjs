// The code to change for a section of the migration guide, as a diff of TypeScript lines written
// against @cdas/sdk (sdk.client is the typed openapi-fetch client of the version). Only the kinds of
// change where a line of code helps get one: the version itself (the SDK's option and a client's
// import), an envelope, a rename, a field moved into an object, an object that becomes an array of
// items (its fields read from each), fields an object replaces, a number or
// a boolean that becomes a string (the boolean only where the document gives the string's values), a
// parameter or error fields that are gone. A hint says what the documents say, no policy of its own,
// and what @cdas/sdk itself does with a field that goes (its retries read `temporary`).

import { UNNAMED_KEY } from "./openapi-walk.mjs";

const camelCase = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

/** Items as a sentence lists them: "a", "a and b", "a, b and c" (the guide's clauses use it too). */
export function inWords(items) {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** A variable name for the objects at a field path: "accounts[].fees[]" -> "fee", "product" -> "product". */
function variableFor(place) {
  const last = (place ?? "").split(/[.,]\s*/).at(-1) ?? "";
  const bare = last.replaceAll("[]", "").replace(UNNAMED_KEY, "transaction");
  if (!bare) return "item";
  const camel = camelCase(bare);
  return last.endsWith("[]") && camel.endsWith("s") ? camel.replace(/ies$/, "y").replace(/s$/, "") : camel;
}

function clauseLines(clause, entry, section, report) {
  const variable = variableFor(entry.places[0]);
  const path = section.operations[0]?.split(" ")[1];
  switch (clause.kind) {
    case "version":
      // A client package is one version (it sends that version's header): the import changes.
      return [
        `- const sdk = createSdk({ version: "${report.from.label}", baseUrl, clientId, clientSecret });`,
        `+ const sdk = createSdk({ version: "${report.to.label}", baseUrl, clientId, clientSecret });`,
        `  // or, with a client directly (and @cdas/client-${report.to.label} in package.json):`,
        `- import { createClient } from "@cdas/client-${report.from.label}";`,
        `+ import { createClient } from "@cdas/client-${report.to.label}";`,
        // Every field of a record is optional: a newer record still fits an older type, and a field that
        // moved reads undefined without a compile error. Each model type named changes with the version.
        `  // and every model type you name: the compiler does not ask, as a ${report.to.label} record fits a ${report.from.label} type (its fields are optional)`,
        `- function describe(transaction: ${report.from.label.toUpperCase()}.Transaction) {`,
        `+ function describe(transaction: ${report.to.label.toUpperCase()}.Transaction) {`,
      ];
    case "envelope":
      return section.operations.flatMap((op) => [
        `  const { data } = await sdk.client.GET("${op.split(" ")[1]}");`,
        "- const items = data;",
        `+ const items = data?.${clause.keys[0]} ?? []; // links.next leads to the next page; sdk.paginate("${op.split(" ")[1]}") walks them`,
      ]);
    case "rename":
      return [`- ${variable}.${clause.from}`, `+ ${variable}.${clause.to}`];
    case "nested":
      return [`- ${variable}.${clause.name}`, `+ ${variable}.${clause.into}?.${clause.name}`];
    case "moved": {
      // An object that became an array: its fields are read from each item.
      const place = entry.places[0] ?? "";
      const field = place.split(".").at(-1);
      const parent = variableFor(place.split(".").slice(0, -1).join("."));
      return clause.names.flatMap((name) => [
        `- ${parent}.${field}?.${name}`,
        `+ ${parent}.${field}?.map((item) => item.${name}) // an array now: one per item`,
      ]);
    }
    case "replaced":
      return [
        `- ${clause.names.map((name) => `${variable}.${name}`).join(", ")}`,
        `+ ${variable}.${clause.into} // replaces them as a whole`,
      ];
    case "type":
      if (clause.to === "string" && clause.from === "number")
        // `| undefined` and the test: the line holds whether the field is required or optional.
        return clause.names.flatMap((name) => [
          `- const ${camelCase(name)}: number | undefined = ${variable}.${name};`,
          `+ const ${camelCase(name)} = ${variable}.${name} === undefined ? undefined : Number(${variable}.${name}); // now a string`,
        ]);
      if (clause.to === "string" && clause.from === "boolean")
        return clause.names.flatMap((name) => booleanToStringLines(variable, name, clause.values?.[name]));
      return [];
    case "param-removed":
      return [
        `- await sdk.client.GET("${path}", { params: { query: { ${clause.names[0]}: value } } });`,
        `+ await sdk.client.GET("${path}"); // the answer is no longer narrowed by ${clause.names[0]}`,
      ];
    case "removed":
      // What is left to go by is the status the documents declare, not a rule of when to retry.
      // The SDK's own retries read `temporary` (a 500 is retried only when it says so): said where it goes.
      return clause.errorStatuses
        ? [
            `- if (error?.${clause.names.includes("temporary") ? "temporary" : clause.names[0]}) retryLater(); // the error body sdk.client returns`,
            `+ // ${clause.names.map((n) => `error.${n}`).join(", ")}: gone; the documents declare ${inWords(clause.errorStatuses.split(", "))} here:`,
            "+ // decide from response.status (a thrown CdasApiError has .status)",
            ...(clause.names.includes("temporary")
              ? [
                  "+ // and @cdas/sdk no longer retries a 500 here itself: it retries one only when the body says temporary: true",
                ]
              : []),
          ]
        : [];
    default:
      return [];
  }
}

/**
 * A boolean that becomes a string is tested against a value only when the document gives one: its
 * enum (every value), or an example (one value, the others not listed).
 */
function booleanToStringLines(variable, name, values) {
  const value = values?.enum?.[0] ?? values?.examples?.[0];
  if (typeof value !== "string") return [];
  const said = values.enum
    ? `one of ${values.enum.map((v) => JSON.stringify(v)).join(", ")}`
    : `the documents show ${JSON.stringify(value)} and do not list the other values`;
  return [
    `- if (${variable}.${name}) {`,
    `+ if (${variable}.${name} === ${JSON.stringify(value)}) { // a string now: ${said}`,
  ];
}

/** The diff lines of one section, or undefined when no code changes help. */
export function codeHints(section, report) {
  const lines = [];
  for (const entry of section.entries) {
    for (const clause of entry.clauses) lines.push(...clauseLines(clause, entry, section, report));
  }
  return lines.length ? lines : undefined;
}
