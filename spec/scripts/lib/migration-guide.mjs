// The migration guide of a pair of versions, built from its change report: what a developer changes,
// grouped by the operations it concerns, each change said once. Changes to the same object are one
// entry; a property removed and one added at the same place whose names differ only in case style is
// one rename; the same entry on several operations or places is written once with all of them.
// Component-only and annotation changes are folded (listed with `all`); the md and json reports keep
// every detail.
import { deref, pointerTokens } from "../../openapi/index.js";
import { isSchemaPath } from "./classify-change.mjs";
import { codeHints, inWords } from "./guide-code.mjs";
import { fieldPaths, namesWithAllOf } from "./openapi-walk.mjs";

const nameKey = (name) => name.toLowerCase().replaceAll("_", "");

function listWords(names) {
  return inWords(names.map((n) => `\`${n}\``));
}

/** Where a container sits: its component, or its operation's body with the statuses merged. */
function containerOf(tokens) {
  const clean = tokens.filter((t, i) => t !== "allOf" && tokens[i - 1] !== "allOf");
  if (clean[0] === "components") return { key: clean.join("/"), component: clean[2], statuses: [] };
  const responses = clean.indexOf("responses");
  if (responses >= 0) {
    const status = clean[responses + 1];
    const key = [
      ...clean.slice(0, responses + 1),
      Number(status) >= 400 ? "error" : "ok",
      ...clean.slice(responses + 2),
    ];
    return { key: key.join("/"), statuses: [status], error: Number(status) >= 400, body: true };
  }
  return { key: clean.join("/"), statuses: [], body: clean.includes("requestBody"), request: true };
}

/** Sorts one change into the container it touches and what it does there. */
function classifyForGuide(change) {
  if (change.pointer.startsWith("(")) return { kind: "version", container: { key: "(version)" } };
  const tokens = pointerTokens(change.pointer);
  const last = tokens.at(-1);
  if (tokens[0] === "components" && tokens.length === 3) return { kind: "fold" };
  const parameter = /(\w+) parameter `([^`]+)`/.exec(change.summary);
  if (parameter && (tokens.at(-2) === "parameters" || last === "required")) {
    const kind = last === "required" ? "param-required" : `param-${change.action}`;
    return { kind, container: { key: "(parameters)" }, name: parameter[2], where: parameter[1] };
  }
  if (isSchemaPath(tokens) < 0 && tokens[0] !== "components") return { kind: "other" };
  if (tokens.at(-2) === "properties") {
    return { kind: `field-${change.action}`, container: containerOf(tokens.slice(0, -2)), name: last };
  }
  if (tokens.at(-3) === "properties" && last === "type") {
    return { kind: "field-type", container: containerOf(tokens.slice(0, -3)), name: tokens.at(-2) };
  }
  if (tokens.at(-3) === "properties" && last === "description" && change.class === "annotation") {
    return { kind: "field-description", container: containerOf(tokens.slice(0, -3)), name: tokens.at(-2) };
  }
  if (last === "type") return { kind: "container-type", container: containerOf(tokens.slice(0, -1)) };
  if (last === "items") return { kind: "container-items", container: containerOf(tokens.slice(0, -1)) };
  if (tokens.at(-2) === "required" || last === "required") {
    return {
      kind: "container-required",
      container: containerOf(tokens.slice(0, tokens.lastIndexOf("required"))),
    };
  }
  return { kind: "other" };
}

/** The schema at a pointer of a document, `$ref`s followed on the way; undefined when there is none. */
function schemaAt(doc, tokens) {
  try {
    let node = doc;
    for (const token of tokens) {
      node = deref(doc, node)?.[token];
      if (node === undefined) return undefined;
    }
    return deref(doc, node);
  } catch {
    return undefined; // a dangling or cyclic reference: say less rather than fail
  }
}

/** The property names of a schema, its allOf members' included, in the order they are written. */
function propertyNames(doc, schema) {
  return namesWithAllOf(doc, schema, (s) => Object.keys(s.properties ?? {}));
}

/** The names a schema lists as `required`, its allOf members' included. */
function requiredNames(doc, schema) {
  return namesWithAllOf(doc, schema, (s) => (Array.isArray(s.required) ? s.required : []));
}

/**
 * The keys of an envelope as the interface writes them, `{consents, links?}`: a key its schema does not
 * require is marked `?`, so that a reader does not count on it (a page's `links` may be absent).
 */
function envelopeShape(doc, tokens, keys) {
  const required = requiredNames(doc, schemaAt(doc, tokens));
  return `{${keys.map((key) => (required.includes(key) ? key : `${key}?`)).join(", ")}}`;
}

/** The field names of the items of the array at `tokens` in `doc` (empty when it is no array of objects). */
function itemFields(doc, tokens) {
  const schema = schemaAt(doc, tokens);
  if (!schema?.items) return [];
  return propertyNames(doc, schemaAt(doc, [...tokens, "items"]));
}

function typeWord(type, plural) {
  const text = Array.isArray(type) ? type.join(" or ") : String(type);
  const article = /^[aeiou]/.test(text) ? "an" : "a";
  if (text === "array") return plural ? "arrays" : "an array";
  return plural ? `${text}s` : `${article} ${text}`;
}

/** How a place is the subject of a sentence that already opens with its field paths ("In `a`, `b`: ..."). */
function subjectOf(place) {
  if (place.name) return place.name;
  return place.labels?.length ? "the field" : place.subject;
}

/**
 * The clauses of a container whose type changes (`change` at `.../type`). Takes from `removed` and
 * `added` the fields it accounts for: an array that becomes an object holding the list (an envelope)
 * and the reverse, an object that becomes an array of items (its fields now in each item), an array of
 * items that becomes one object (the item fields it no longer has are gone).
 */
function reshapeClauses(change, place, docs, { removed, added }) {
  const { before, after } = change;
  const tokens = pointerTokens(change.pointer).slice(0, -1);
  const subject = subjectOf(place);
  const isList = (doc, name) =>
    [schemaAt(doc, [...tokens, "properties", name])?.type].flat().includes("array");
  if (before === "array" && after === "object" && added.some((name) => isList(docs.after, name))) {
    const keys = [...added];
    added.length = 0;
    return [
      {
        kind: "envelope",
        text: `${subject} is now \`${envelopeShape(docs.after, tokens, keys)}\` instead of a bare array`,
        keys,
      },
    ];
  }
  const heldList =
    before === "object" && after === "array" && removed.find((name) => isList(docs.before, name));
  if (heldList) {
    const keys = [...removed];
    removed.length = 0;
    return [
      {
        kind: "unwrap",
        text: `${subject} is now a bare array of the \`${heldList}\` items instead of \`${envelopeShape(docs.before, tokens, keys)}\``,
      },
    ];
  }
  const itemsAfter = after === "array" ? itemFields(docs.after, tokens) : [];
  const itemsBefore = before === "array" ? itemFields(docs.before, tokens) : [];
  if (itemsAfter.length) {
    const moved = removed.filter((name) => itemsAfter.includes(name));
    for (const name of moved) removed.splice(removed.indexOf(name), 1);
    const clauses = [
      {
        kind: "reshape",
        text: `${subject} is now an array of \`{${itemsAfter.join(", ")}}\` instead of ${typeWord(before)}`,
      },
    ];
    if (moved.length) {
      clauses.push({
        kind: "moved",
        text: `${listWords(moved)} ${moved.length > 1 ? "are" : "is"} now in each item`,
        names: moved,
      });
    }
    return clauses;
  }
  if (itemsBefore.length) {
    const kept = [...added];
    const shape = kept.length ? ` \`{${kept.join(", ")}}\`` : "";
    added.length = 0;
    for (const name of itemsBefore) if (!kept.includes(name) && !removed.includes(name)) removed.push(name);
    return [
      {
        kind: "reshape",
        text: `${subject} is now ${typeWord(after)}${shape} instead of an array of \`{${itemsBefore.join(", ")}}\``,
      },
    ];
  }
  return [{ kind: "reshape", text: `${subject} is now ${typeWord(after)} instead of ${typeWord(before)}` }];
}

/**
 * The clauses of one container: renames, reshaping, type changes, removed and new fields. `docs` are
 * the two documents ({before, after}): a container that becomes an array, or stops being one, is said
 * with the fields of its items, so that fields that move into (or out of) the items are not "gone".
 */
function containerClauses(items, place, docs) {
  const of = (kind) => items.filter((i) => i.kind === kind);
  const removed = [...new Set(of("field-remove").map((i) => i.name))];
  const added = [...new Set(of("field-add").map((i) => i.name))];
  const clauses = [];
  const renames = [];
  for (const name of [...removed]) {
    const partner = added.find((a) => a !== name && nameKey(a) === nameKey(name));
    if (!partner) continue;
    renames.push([name, partner]);
    removed.splice(removed.indexOf(name), 1);
    added.splice(added.indexOf(partner), 1);
  }
  const fieldsOf = (kind, doc) => (name) => {
    const item = of(kind).find((i) => i.name === name);
    return item ? propertyNames(doc, schemaAt(doc, pointerTokens(item.change.pointer)) ?? {}) : [];
  };
  const fieldsBefore = fieldsOf("field-remove", docs.before);
  const fieldsAfter = fieldsOf("field-add", docs.after);
  // A renamed object is shown with its fields when they changed too, as a new object is.
  for (const [from, to] of renames) {
    const fields = fieldsAfter(to);
    const changed = fields.length > 0 && fields.join() !== fieldsBefore(from).join();
    const shown = changed ? ` \`{${fields.join(", ")}}\`` : "";
    clauses.push({ kind: "rename", text: `\`${from}\` is now \`${to}\`${shown}`, from, to });
  }
  const reshaped = of("container-type")[0];
  if (reshaped) clauses.push(...reshapeClauses(reshaped.change, place, docs, { removed, added }));
  // A field gone from here that a new (or renamed) object beside it holds by the same name has moved.
  const newObjects = of("field-add").map((item) => ({ name: item.name, fields: fieldsAfter(item.name) }));
  for (const name of [...removed]) {
    const into = newObjects.find((object) => object.fields.includes(name));
    if (!into) continue;
    removed.splice(removed.indexOf(name), 1);
    clauses.push({
      kind: "nested",
      text: `\`${name}\` is now \`${into.name}.${name}\``,
      name,
      into: into.name,
    });
  }
  // Fields gone from here that a new object replaces as a whole (`x-cdas-replaces` beside its properties).
  for (const item of of("field-add")) {
    const container = schemaAt(docs.after, pointerTokens(item.change.pointer).slice(0, -2));
    const replaced = (container?.["x-cdas-replaces"]?.[item.name] ?? []).filter((n) => removed.includes(n));
    if (!replaced.length) continue;
    for (const name of replaced) removed.splice(removed.indexOf(name), 1);
    added.splice(added.indexOf(item.name), 1);
    const fields = fieldsAfter(item.name);
    const into = fields.length ? `\`${item.name}\` \`{${fields.join(", ")}}\`` : `\`${item.name}\``;
    clauses.push({
      kind: "replaced",
      text: `${listWords(replaced)} ${replaced.length > 1 ? "are" : "is"} replaced by ${into} as a whole (the interface maps no field to another)`,
      names: replaced,
      into: item.name,
    });
  }
  const byType = new Map();
  for (const item of of("field-type")) {
    const key = `${JSON.stringify(item.change.before)}>${JSON.stringify(item.change.after)}`;
    if (!byType.has(key)) byType.set(key, { ...item.change, names: [], values: {} });
    const group = byType.get(key);
    group.names.push(item.name);
    // The values the newer document gives the field (its enum, else its examples), for the code hint.
    const schema = schemaAt(docs.after, pointerTokens(item.change.pointer).slice(0, -1));
    if (schema?.enum) group.values[item.name] = { enum: schema.enum };
    else if (schema?.examples?.length) group.values[item.name] = { examples: schema.examples };
  }
  for (const { before, after, names, values } of byType.values()) {
    const plural = names.length > 1;
    clauses.push({
      kind: "type",
      text: `${listWords(names)} ${plural ? "are" : "is"} now ${typeWord(after, plural)} (${plural ? "were" : "was"} ${typeWord(before, plural)})`,
      names,
      from: before,
      to: after,
      values,
    });
  }
  if (removed.length) {
    const gone = `${listWords(removed)} ${removed.length > 1 ? "are" : "is"} gone`;
    clauses.push({
      kind: "removed",
      text: place.error ? `${gone} from ${place.subject}` : gone,
      names: removed,
      ...(place.error && { errorStatuses: place.statuses }),
    });
  }
  if (added.length) {
    // A new object is shown with its fields, so that a reader sees where gone fields went; a new
    // field with an enum, with its values; one the documents give no type, as such (typed `unknown`).
    const shown = added.map((name) => {
      const fields = newObjects.find((object) => object.name === name)?.fields ?? [];
      if (fields.length) return `\`${name}\` \`{${fields.join(", ")}}\``;
      const item = of("field-add").find((i) => i.name === name);
      const schema = schemaAt(docs.after, pointerTokens(item.change.pointer));
      if (schema?.enum) return `\`${name}\` (${schema.enum.map((v) => `\`${v}\``).join(" or ")})`;
      return isUntyped(schema) ? `\`${name}\` (type not documented: \`unknown\`)` : `\`${name}\``;
    });
    clauses.push({ kind: "added", text: `new: ${inWords(shown)}`, names: added });
  }
  const touched = new Set([...renames.flat(), ...of("field-type").map((i) => i.name), ...removed, ...added]);
  for (const item of of("field-description").filter((i) => !touched.has(i.name))) {
    const said = String(item.change.after ?? "").trim();
    clauses.push({
      kind: "description",
      text: `\`${item.name}\` is documented anew: “${said}”`,
      names: [item.name],
    });
  }
  return clauses;
}

/** A schema that says nothing of its value's type (no type, reference, composition or constant). */
function isUntyped(schema) {
  if (!schema || typeof schema !== "object") return false;
  return ["type", "$ref", "enum", "const", "oneOf", "anyOf", "allOf", "items", "properties"].every(
    (key) => !(key in schema),
  );
}

function parameterClauses(items) {
  const clauses = [];
  const byKind = (kind) => items.filter((i) => i.kind === kind);
  for (const item of byKind("param-remove")) {
    clauses.push({
      kind: "param-removed",
      // A query parameter that is gone no longer selects anything: the answer holds what it left out.
      // Sent anyway, it is refused where parameters are checked (the sandbox's 400 "is not allowed here").
      text: `the ${item.where} parameter \`${item.name}\` is gone: stop sending it${item.where === "query" ? " (the sandbox refuses it with a 400); answers are no longer narrowed by it" : ""}`,
      names: [item.name],
    });
  }
  for (const item of byKind("param-required")) {
    const now = item.change.after === true ? "now required" : "now optional";
    clauses.push({
      kind: "param-required",
      text: `the ${item.where} parameter \`${item.name}\` is ${now}`,
      names: [item.name],
    });
  }
  const added = byKind("param-add");
  if (added.length) {
    const names = added.map((i) => i.name);
    clauses.push({
      kind: "param-added",
      text: `new optional ${added[0].where} ${names.length > 1 ? "parameters" : "parameter"} ${listWords(names)}`,
      names,
    });
  }
  return clauses;
}

/** How a container is named in a sentence: its field path in each operation, or the body itself. */
function describePlace(container, changes, docs) {
  if (container.error) {
    const statuses = [...new Set(container.statuses)].sort().join(", ");
    return { subject: `the error body (${statuses})`, labels: [], error: true, statuses };
  }
  if (!container.component)
    return { subject: container.request ? "the request body" : "the body", labels: [] };
  const operations = [...new Set(changes.flatMap((c) => c.operations))];
  // The newer document names the places as the reader will find them; the older one when it is gone.
  const [newer, older] = docs.map((doc) =>
    [...new Set(operations.flatMap((op) => fieldPaths(doc, op, container.component)))].sort(),
  );
  const list = newer?.length ? newer : (older ?? []);
  if (list.length === 0 || list.includes("")) return { subject: "the body", labels: [] };
  const names = [...new Set(list.map((p) => p.split(".").at(-1).replace(/\[\]$/, "")))];
  // Items of a bare array in one document and under a key in the other: the place is said both ways.
  const bare = (paths) => paths?.length === 1 && paths[0] === "[]";
  let placeNote;
  if (list === newer && older?.length && bare(older) !== bare(newer))
    placeNote = bare(older)
      ? "before, the items of the bare array"
      : `the items of the bare array; before, ${listWords(older)}`;
  // A place under a renamed field is named as it was too ("were numbers" is said of the older path):
  // kept as a list, so that entries merged from several places name every one (renamedNote).
  const renamedFrom =
    list === newer && !placeNote ? (older ?? []).filter((path) => !newer.includes(path)) : [];
  return {
    subject: listWords(list),
    labels: list,
    name: names.length === 1 ? `\`${names[0]}\`` : undefined,
    placeNote,
    renamedFrom,
  };
}

/** The note of places under a renamed field: their older paths. */
function renamedNote(renamedFrom) {
  return renamedFrom.length > 0 ? `named ${listWords([...renamedFrom].sort())} before` : undefined;
}

function versionBullet(report, change) {
  return {
    operations: ["every operation"],
    places: [],
    clauses: [
      {
        kind: "version",
        // The interface asks clients to send the header while migrating (a console pin cannot be lowered).
        text: `send \`X-Platform-Version: ${report.to.label}\` on every request (was \`${change.before}\`), and name every model type from ${report.to.label} (\`${report.to.label.toUpperCase()}.Transaction\`, not \`${change.before.toUpperCase()}.Transaction\`)`,
      },
    ],
    changes: [change],
  };
}

/** Entries of the guide before merging: one per container, plus parameters and the version switch. */
function rawBullets(report, docs) {
  const sides = { after: docs[0], before: docs[1] };
  const groups = new Map();
  const folded = [];
  const bullets = [];
  for (const change of report.changes) {
    const sorted = classifyForGuide(change);
    const useful =
      change.class !== "annotation" || sorted.kind === "field-description" || sorted.kind === "version";
    if (sorted.kind === "fold" || !useful) {
      folded.push(change);
      continue;
    }
    if (sorted.kind === "version") {
      bullets.push(versionBullet(report, change));
      continue;
    }
    const ops = change.operations.join(", ");
    const key = sorted.kind === "other" ? `other ${change.pointer}` : `${ops} ${sorted.container.key}`;
    if (!groups.has(key)) groups.set(key, { container: sorted.container, items: [] });
    const group = groups.get(key);
    if (sorted.container?.statuses)
      group.container.statuses = [...group.container.statuses, ...sorted.container.statuses];
    group.items.push({ ...sorted, change });
  }
  for (const { container, items } of groups.values()) {
    const changes = items.map((i) => i.change);
    const operations = [...new Set(changes.flatMap((c) => c.operations))].sort();
    if (items[0].kind === "other") {
      bullets.push({
        operations,
        places: [],
        clauses: [{ kind: "other", text: changes[0].summary }],
        changes,
      });
      continue;
    }
    if (container.key === "(parameters)") {
      // One entry per kind of parameter change, so that the same change on several operations merges.
      for (const clause of parameterClauses(items)) {
        const own = changes.filter((c) => clause.names.some((n) => c.summary.includes(`\`${n}\``)));
        bullets.push({ operations, places: [], clauses: [clause], changes: own });
      }
      continue;
    }
    const place = describePlace(container, changes, docs);
    const clauses = containerClauses(items, place, sides);
    // A description-only container (an annotation with nothing to act on) stays folded.
    if (clauses.length === 0) folded.push(...changes);
    else
      bullets.push({
        operations,
        places: place.labels,
        clauses,
        changes,
        placeNote: place.placeNote,
        renamedFrom: place.renamedFrom ?? [],
      });
  }
  return { bullets, folded };
}

/** The same clauses on several places or operations are one entry naming all of them. */
function mergeBullets(bullets) {
  const merged = new Map();
  for (const bullet of bullets) {
    const key = bullet.clauses.map((c) => c.text).join("; ");
    const existing = merged.get(key);
    if (!existing) {
      merged.set(key, { ...bullet, places: [...bullet.places] });
      continue;
    }
    existing.operations = [...new Set([...existing.operations, ...bullet.operations])].sort();
    existing.places = [...new Set([...existing.places, ...bullet.places])].sort();
    existing.placeNote ??= bullet.placeNote;
    existing.renamedFrom = [...new Set([...(existing.renamedFrom ?? []), ...(bullet.renamedFrom ?? [])])];
    existing.changes.push(...bullet.changes);
  }
  return [...merged.values()];
}

/** An anchor for a set of operations: "op-get-v1-consent" for one, joined for several. */
export function sectionAnchor(operations) {
  return operations
    .map(
      (op) =>
        `op-${op
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, "-")
          .replace(/-+$/, "")}`,
    )
    .join("--");
}

/** Builds the guide of a report (see the top of this file). */
export function buildGuide(report, beforeDoc, afterDoc) {
  const { bullets, folded } = rawBullets(report, [afterDoc, beforeDoc]);
  const sections = new Map();
  for (const bullet of mergeBullets(bullets)) {
    const key = bullet.operations.join(" · ");
    if (!sections.has(key))
      sections.set(key, {
        operations: bullet.operations,
        anchor: sectionAnchor(bullet.operations),
        entries: [],
      });
    sections.get(key).entries.push({
      text: bullet.clauses.map((c) => c.text).join("; "),
      places: bullet.places,
      placeNote: bullet.placeNote ?? renamedNote(bullet.renamedFrom ?? []),
      clauses: bullet.clauses,
      breaking: bullet.changes.some((c) => c.class === "breaking"),
      pointers: bullet.changes.map((c) => c.pointer),
    });
  }
  const ordered = [...sections.values()].sort((a, b) =>
    a.operations[0] === "every operation"
      ? -1
      : b.operations[0] === "every operation"
        ? 1
        : a.operations[0].localeCompare(b.operations[0]) || a.operations.length - b.operations.length,
  );
  for (const section of ordered) section.code = codeHints(section, report);
  linkSectionsOfEachOperation(ordered);
  return { from: report.from, to: report.to, counts: report.counts, sections: ordered, folded };
}

/**
 * An operation's changes can be in several sections (its own, and those it shares with other
 * operations, above or below it). The section the version bar links to (operationSections) names the
 * others, so that the reader who lands there sees every change of the operation, or its link.
 */
function linkSectionsOfEachOperation(sections) {
  const everyOperation = sections.filter((section) => section.operations[0] === "every operation");
  for (const [operation, anchor] of Object.entries(operationSections({ sections }))) {
    if (operation === "every operation") continue;
    const landing = sections.find((section) => section.anchor === anchor);
    const others = sections.filter((s) => s !== landing && s.operations.includes(operation));
    const related = [...others, ...everyOperation].map((section) => ({
      anchor: section.anchor,
      operations: section.operations,
      entries: section.entries.length,
      breaking: section.entries.filter((entry) => entry.breaking).length,
    }));
    if (related.length === 0) continue;
    landing.related ??= [];
    landing.related.push({ operation, sections: related });
  }
}

/** What a report's breaking count counts, beside the changes to make (migrationSize). */
export const DIFFERENCES_COUNTED =
  "one change counts once per field, status, operation and `required` list it touches";

/** `n` and the word for it, singular for one: `1 group`, `3 groups`, `2 entries` (given `many`). */
export function counted(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The size of a migration, said the same way by the guide, the change reports and the index: the
 * guide's breaking entries are the changes a developer makes; the report's breaking changes are the
 * differences between the documents (DIFFERENCES_COUNTED: one row of the interface's tables can be
 * dozens of them).
 */
export function migrationSize(guide) {
  const entries = guide.sections.flatMap((section) => section.entries);
  const toMake = entries.filter((entry) => entry.breaking).length;
  const differences = guide.counts.breaking;
  return {
    toMake,
    differences,
    text: `${counted(toMake, "breaking change")} to make (the migration guide's entries); ${counted(differences, "breaking difference")} in the documents, where ${DIFFERENCES_COUNTED}`,
  };
}

/**
 * Which section of the guide to open for each operation: the one most its own (naming the fewest
 * operations, the first of equals), not a section it only shares with others; it names the others
 * (`related`).
 */
export function operationSections(guide) {
  const best = {};
  for (const section of guide.sections) {
    for (const op of section.operations)
      if (!best[op] || section.operations.length < best[op].operations.length) best[op] = section;
  }
  return Object.fromEntries(Object.entries(best).map(([op, section]) => [op, section.anchor]));
}
