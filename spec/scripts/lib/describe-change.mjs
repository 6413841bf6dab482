// A readable one-line summary of a change: where it is (component, body, response, parameter) and what.
import { isSchemaPath } from "./classify-change.mjs";
import { deref, isObject } from "./openapi-walk.mjs";

/** A readable name for the field a schema path points at: `rates[].tiers[].minimum_value`. */
function fieldName(path, start) {
  const parts = [];
  for (let i = start; i < path.length; i++) {
    if (path[i - 1] === "properties" && i - 1 >= start) parts.push(String(path[i]));
    else if (path[i] === "items" && path[i - 1] !== "properties") parts.push("[]");
  }
  return parts.join(".").replaceAll(".[]", "[]");
}

/** Where a path points inside an example's value: `accounts[0].fees[0].amount` (empty for the value itself). */
function exampleField(path, valueIndex) {
  return path
    .slice(valueIndex + 1)
    .map((part) => (typeof part === "number" ? `[${part}]` : `.${part}`))
    .join("")
    .replace(/^\./, "");
}

export function describe(diff, context, pointerTokens) {
  const { path, action } = diff;
  const key = path.at(-1);
  const parentKey = path.at(-2);
  const verb = { add: "added", remove: "removed", replace: "changed", rename: "renamed" }[action];
  const where = [];
  const parameterIndex = path.lastIndexOf("parameters");
  // A whole `components` (or a whole section of it) added or removed names no one component.
  if (pointerTokens[0] === "components" && pointerTokens[2] !== undefined) {
    where.push(`${pointerTokens[1].replace(/s$/, "").replace(/ie$/, "y")} \`${pointerTokens[2]}\``);
  } else if (path[0] === "components" && path[2] !== undefined)
    where.push(`${path[1].replace(/s$/, "")} \`${path[2]}\``);
  else if (path[0] === "components")
    where.push(path[1] === undefined ? "components" : `components ${path[1]}`);
  else if (path.includes("requestBody")) where.push("request body");
  else if (path.includes("responses") && path.length > path.indexOf("responses") + 1) {
    where.push(`response ${path[path.indexOf("responses") + 1]}`);
  }
  if (parameterIndex >= 0 && typeof path[parameterIndex + 1] === "number") {
    const locatePart = action === "remove" ? context.locateBefore : context.locateAfter;
    const parameter = deref(
      context[action === "remove" ? "before" : "after"],
      locatePart(path.slice(0, parameterIndex + 2)).node,
      [],
    ).node;
    if (isObject(parameter) && parameter.name) where.push(`${parameter.in} parameter \`${parameter.name}\``);
  }
  // An example's value: named by the example and where in its value (several examples change alike).
  const examplesIndex = path.lastIndexOf("examples");
  if (examplesIndex >= 0 && path[examplesIndex + 2] === "value") {
    where.push(`example \`${path[examplesIndex + 1]}\``);
    const inValue = exampleField(path, examplesIndex + 2);
    return [where.join(", "), inValue ? `\`${inValue}\` ${verb}` : verb].join(": ");
  }
  // Inside a component the field is named from the component; elsewhere from the operation's body.
  const schemaStart = isSchemaPath(path);
  const inComponentSchema = pointerTokens[0] === "components" && pointerTokens[1] === "schemas";
  const field = inComponentSchema
    ? fieldName(pointerTokens, 3)
    : schemaStart >= 0
      ? fieldName(path, schemaStart)
      : "";
  let what;
  if (parentKey === "x-cdas-pagination") {
    // The pagination the SDK walks (x-cdas-pagination): its style, or the key that holds the list.
    const list = (value) =>
      value === "" ? "a bare array" : value === undefined ? "none" : `under \`${value}\``;
    const show = key === "items" ? list : (value) => (value === undefined ? "none" : `\`${value}\``);
    const subject = key === "items" ? "the list" : `paging ${key}`;
    what = `${subject}: ${show(diff.before)} → ${show(diff.after)} (x-cdas-pagination)`;
  } else if (path[0] === "components" && path.length === 3) what = verb;
  else if (parentKey === "properties") what = `field \`${field}\` ${verb}`;
  else if (parameterIndex >= 0 && parameterIndex === path.length - 2) what = verb;
  else if (typeof key === "number") {
    const value = JSON.stringify(action === "remove" ? diff.before : diff.after) ?? "";
    const item = value.length <= 40 ? ` ${value}` : "";
    what = `${field ? `\`${field}\` ` : ""}${parentKey} item${item} ${verb}`;
  } else if ((key === "type" || key === "format") && action === "replace") {
    const show = (value) => (Array.isArray(value) ? value.join(" | ") : String(value));
    what = `${field ? `\`${field}\` ` : ""}${key} ${show(diff.before)} → ${show(diff.after)}`;
  } else if (parentKey === "responses") what = `response ${key} ${verb}`;
  else {
    // An operation's body schema itself (its description), told apart from the response's own.
    const bodySchema = schemaStart >= 0 && path[0] === "paths" && pointerTokens[0] !== "components";
    what = `${field ? `\`${field}\` ` : bodySchema ? "schema " : ""}${key} ${verb}`;
  }
  return [where.join(", "), what].filter(Boolean).join(": ");
}
