// The code to change for a section of the migration guide, as a diff of TypeScript lines written
// against @cdas/sdk (sdk.client is the typed openapi-fetch client of the version). Only the kinds of
// change where a line of code helps get one: the version itself, an envelope, a rename, a field moved
// into an object, fields an object replaces, a type that becomes a string, a parameter or error fields that are gone.

import { UNNAMED_KEY } from "./openapi-walk.mjs";

/** A variable name for the objects at a field path: "accounts[].fees[]" -> "fee", "product" -> "product". */
function variableFor(place) {
  const last = (place ?? "").split(/[.,]\s*/).at(-1) ?? "";
  const bare = last.replaceAll("[]", "").replace(UNNAMED_KEY, "transaction");
  if (!bare) return "item";
  const camel = bare.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
  return last.endsWith("[]") && camel.endsWith("s") ? camel.replace(/ies$/, "y").replace(/s$/, "") : camel;
}

function clauseLines(clause, entry, section, report) {
  const variable = variableFor(entry.places[0]);
  const path = section.operations[0]?.split(" ")[1];
  switch (clause.kind) {
    case "version":
      return [
        `- const sdk = createSdk({ version: "${report.from.label}", baseUrl, clientId, clientSecret });`,
        `+ const sdk = createSdk({ version: "${report.to.label}", baseUrl, clientId, clientSecret });`,
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
    case "replaced":
      return [
        `- ${clause.names.map((name) => `${variable}.${name}`).join(", ")}`,
        `+ ${variable}.${clause.into} // replaces them as a whole`,
      ];
    case "type":
      return clause.to === "string" && clause.from === "number"
        ? clause.names.flatMap((name) => [
            `- const ${name.replace(/_([a-z])/g, (_, c) => c.toUpperCase())}: number = ${variable}.${name};`,
            `+ const ${name.replace(/_([a-z])/g, (_, c) => c.toUpperCase())} = Number(${variable}.${name}); // now a string`,
          ])
        : [];
    case "param-removed":
      return [
        `- await sdk.client.GET("${path}", { params: { query: { ${clause.names[0]}: value } } });`,
        `+ await sdk.client.GET("${path}");`,
      ];
    case "removed":
      return entry.places.length === 0 && clause.text.includes("error body")
        ? [
            `- if (error?.${clause.names.includes("temporary") ? "temporary" : clause.names[0]}) retryLater(); // the error body sdk.client returns`,
            "+ if (response.status >= 500) retryLater(); // decide from the status (a thrown CdasApiError has .status)",
          ]
        : [];
    default:
      return [];
  }
}

/** The diff lines of one section, or undefined when no code changes help. */
export function codeHints(section, report) {
  const lines = [];
  for (const entry of section.entries) {
    for (const clause of entry.clauses) lines.push(...clauseLines(clause, entry, section, report));
  }
  return lines.length ? lines : undefined;
}
