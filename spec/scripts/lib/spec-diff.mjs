// Compares two OpenAPI 3.1 documents: api-smart-diff finds the changes, a small post-classifier
// (classify-change.mjs) fixes the classes it gets wrong for 3.1 schemas and for the direction of the data
// (request vs response), and changes inside shared components are reported once, with every operation
// that uses them.
import { apiCompare } from "api-smart-diff";
import {
  ANNOTATION_KEYWORDS,
  CLASS_RANK,
  classifyParameterChange,
  classifySchemaChange,
  directionOfPath,
  isSchemaPath,
  libraryClass,
} from "./classify-change.mjs";
import { describe } from "./describe-change.mjs";
import { locate, resolvedPointer } from "./merged-path.mjs";
import { componentUsage, HTTP_METHODS, isObject, operationLabel, toPointer } from "./openapi-walk.mjs";
import { normalizeVersionPin } from "./version-pin.mjs";

export { CHANGE_CLASSES } from "./classify-change.mjs";

const pushNew = (list, values) => {
  for (const value of values) if (!list.includes(value)) list.push(value);
};

/** Adds a change to `changes`, merging it with one at the same place (more operations, a better class). */
function record(changes, change) {
  const id = `${change.action} ${change.pointer}`;
  const existing = changes.get(id);
  if (!existing) {
    changes.set(id, change);
    return;
  }
  pushNew(existing.operations, change.operations);
  pushNew(existing.directions, change.directions);
  // A class found in context (a rule, or the library on an operation) beats one found without it.
  const withoutContext = (c) => c.basis === "library-without-context";
  const replaces =
    (withoutContext(existing) && !withoutContext(change)) ||
    (withoutContext(existing) === withoutContext(change) &&
      CLASS_RANK[change.class] > CLASS_RANK[existing.class]);
  if (replaces) Object.assign(existing, { class: change.class, reason: change.reason, basis: change.basis });
}

/** The operations a change reaches and the directions (request, response) it is read in. */
function reach(diff, pointerTokens, sides) {
  const { path } = diff;
  const operations = [];
  let directions = [];
  if (pointerTokens[0] === "components") {
    const root = toPointer(pointerTokens.slice(0, 3));
    for (const usage of [
      diff.action !== "add" ? sides.usageBefore.get(root) : undefined,
      diff.action !== "remove" ? sides.usageAfter.get(root) : undefined,
    ]) {
      pushNew(operations, usage?.operations ?? []);
      pushNew(directions, usage?.directions ?? []);
    }
    const kind = pointerTokens[1];
    if (kind === "parameters" || kind === "requestBodies" || kind === "securitySchemes")
      directions = ["request"];
    if (kind === "responses" || kind === "headers") directions = ["response"];
  }
  if (path[0] === "paths") {
    const item = path[1];
    const methods = HTTP_METHODS.includes(path[2])
      ? [path[2]]
      : HTTP_METHODS.filter((m) => isObject((sides.before.paths?.[item] ?? sides.after.paths?.[item])?.[m]));
    pushNew(
      operations,
      methods.map((m) => operationLabel(m, item)),
    );
    pushNew(directions, [directionOfPath(path)]);
  }
  if (directions.length === 0) directions.push(pointerTokens[0] === "components" ? "unused" : "document");
  return { operations, directions };
}

/** Documentation-only places (descriptions, examples, x- extensions, deprecation): always annotations. */
function annotationVerdict(path) {
  const last = path.at(-1);
  if (last === "deprecated") return ["annotation", "deprecation notice; nothing stops working yet"];
  const example = path.some(
    (key, i) => (key === "examples" || key === "example") && path[i - 1] !== "properties",
  );
  if (example) return ["annotation", "an example changed (documentation only)"];
  const extension = path.find(
    (key, i) => typeof key === "string" && key.startsWith("x-") && path[i - 1] !== "properties",
  );
  if (extension) {
    return [
      "annotation",
      `the \`${extension}\` extension changed (metadata; the parameters and schemas carry the contract)`,
    ];
  }
  if (ANNOTATION_KEYWORDS.has(last) && path.at(-2) !== "properties")
    return ["annotation", "documentation only"];
  return undefined;
}

/** The class of one change, its reason and what decided it (a rule, or api-smart-diff). */
function classify(diff, directions, context) {
  const { path } = diff;
  let verdict = [libraryClass(diff.type), `api-smart-diff: ${diff.type}`];
  // Outside operations api-smart-diff does not know whether a schema is read or sent.
  let basis = path[0] === "paths" ? "library" : "library-without-context";
  const rule = (found) => {
    if (!found) return;
    verdict = found;
    basis = "rule";
  };
  if (isSchemaPath(path) >= 0) {
    const verdicts = directions
      .filter((d) => d === "request" || d === "response")
      .map((d) => classifySchemaChange(diff, d, context))
      .filter(Boolean);
    if (verdicts.length) rule(verdicts.reduce((a, b) => (CLASS_RANK[b[0]] > CLASS_RANK[a[0]] ? b : a)));
  }
  rule(classifyParameterChange(diff, context));
  if (path[0] === "components" && path.length === 3) {
    if (diff.action === "remove")
      rule(["breaking", "a component removed: code that imports its generated type breaks"]);
    else if (diff.action === "add") rule(["non-breaking", "a new component"]);
    else basis = "rule";
  }
  rule(annotationVerdict(path));
  return { class: verdict[0], reason: verdict[1], basis };
}

/** One api-smart-diff change as a report entry. */
function toChange(diff, sides) {
  const { path } = diff;
  const context = {
    before: sides.before,
    after: sides.after,
    locateBefore: (p) => locate(sides.before, sides.merged, p),
    locateAfter: (p) => locate(sides.after, sides.merged, p),
  };
  const parentBefore = resolvedPointer(sides.before, context.locateBefore(path.slice(0, -1)));
  const parentAfter = resolvedPointer(sides.after, context.locateAfter(path.slice(0, -1)));
  // The change lies in one place of both documents when the walks cross the same $refs: then the
  // pointer is that place (inside a component when it is one); otherwise it is the dereferenced path.
  const sharedLocation =
    toPointer(parentBefore) === toPointer(parentAfter) ||
    (parentBefore[0] === "paths" && parentAfter[0] === "paths");
  const own = diff.action === "remove" ? context.locateBefore(path) : context.locateAfter(path);
  const pointerTokens = sharedLocation ? own.pointer : path;
  const { operations, directions } = reach(diff, pointerTokens, sides);
  return {
    ...classify(diff, directions, context),
    action: diff.action,
    pointer: toPointer(pointerTokens),
    pointerScope: sharedLocation ? "document" : "dereferenced operation",
    operations,
    directions,
    summary: describe(diff, context, pointerTokens),
    before: diff.before,
    after: diff.after,
    library: { type: diff.type, description: diff.description },
  };
}

function versionPinChange(before, after) {
  const pinnedBefore = before.pinned.join(", ");
  const pinnedAfter = after.pinned.join(", ");
  if (pinnedBefore === pinnedAfter) return undefined;
  return {
    class: "annotation",
    reason: "the version switch itself: send the new value in X-Platform-Version",
    basis: "rule",
    action: "replace",
    pointer: "(X-Platform-Version header, every operation)",
    pointerScope: "document",
    operations: [],
    directions: ["document"],
    summary: "version header value pinned by the document",
    before: pinnedBefore || undefined,
    after: pinnedAfter || undefined,
    library: { type: "annotation", description: "normalized before comparison" },
  };
}

/**
 * A whole component added or removed (`/components/responses/BadRequestExtended`) that operations use
 * says again what their own entries say: each operation that uses it has an entry of the same
 * direction and at least the same class (a field removed from its error body, its header now
 * required). Such an entry becomes an annotation, so that one change is counted once; a component
 * whose operations show nothing else (renamed, same content) keeps its class: its name is the change.
 */
function foldRestatements(list) {
  const isWhole = (c) => c.pointerScope === "document" && /^\/components\/[^/]+\/[^/]+$/.test(c.pointer);
  for (const change of list) {
    if (!isWhole(change) || (change.action !== "add" && change.action !== "remove")) continue;
    if (change.class === "annotation" || change.operations.length === 0) continue;
    const covered = change.operations.every((op) =>
      list.some(
        (other) =>
          other !== change &&
          !isWhole(other) &&
          other.operations.includes(op) &&
          other.directions.some((d) => change.directions.includes(d)) &&
          CLASS_RANK[other.class] >= CLASS_RANK[change.class],
      ),
    );
    if (!covered) continue;
    Object.assign(change, {
      class: "annotation",
      reason:
        change.action === "remove"
          ? `a component removed; what that changes for ${change.operations.join(", ")} is reported on each of them and not counted again (code that imports its generated type by name breaks)`
          : `a new component; what it changes for ${change.operations.join(", ")} is reported on each of them and not counted again`,
      basis: "rule",
    });
  }
}

/**
 * Compares two documents and returns the report: every change with its operations, JSON pointer,
 * old and new values, class and the reason for the class.
 */
export function diffDocuments(beforeDoc, afterDoc, { from = "before", to = "after" } = {}) {
  const before = normalizeVersionPin(beforeDoc);
  const after = normalizeVersionPin(afterDoc);
  // api-smart-diff rewrites the documents it is given (allOf merges, empty arrays): give it copies.
  const { diffs, merged } = apiCompare(structuredClone(before.doc), structuredClone(after.doc));
  const sides = {
    before: before.doc,
    after: after.doc,
    merged,
    usageBefore: componentUsage(before.doc),
    usageAfter: componentUsage(after.doc),
  };
  const changes = new Map();
  for (const diff of diffs) record(changes, toChange(diff, sides));
  const pin = versionPinChange(before, after);
  if (pin) record(changes, pin);

  const list = [...changes.values()];
  foldRestatements(list);
  list.sort((a, b) => CLASS_RANK[b.class] - CLASS_RANK[a.class] || a.pointer.localeCompare(b.pointer));
  for (const change of list) change.operations.sort();
  return buildReport(list, beforeDoc, afterDoc, from, to);
}

function buildReport(changes, beforeDoc, afterDoc, from, to) {
  const counts = { breaking: 0, "non-breaking": 0, annotation: 0, total: changes.length };
  const byOperation = {};
  for (const change of changes) {
    counts[change.class]++;
    for (const op of change.operations) {
      byOperation[op] ??= { breaking: 0, "non-breaking": 0, annotation: 0 };
      byOperation[op][change.class]++;
    }
  }
  const describeDoc = (doc, label) => ({ label, title: doc?.info?.title, version: doc?.info?.version });
  return {
    generatedBy: "pnpm spec:diff (api-smart-diff 1.0.6 and the @cdas/spec post-classifier)",
    from: describeDoc(beforeDoc, from),
    to: describeDoc(afterDoc, to),
    counts,
    operations: Object.fromEntries(Object.entries(byOperation).sort(([a], [b]) => a.localeCompare(b))),
    changes,
  };
}

/** True when the report holds at least one change of the class `failOn` or worse. */
export function hasChangesAtOrAbove(report, failOn) {
  return report.changes.some((change) => CLASS_RANK[change.class] >= CLASS_RANK[failOn]);
}
