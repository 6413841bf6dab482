// api-smart-diff reports paths in a merged view of both documents ($refs followed, allOf merged, arrays
// indexed): these functions find the place such a path names in one real document.
import { deref, isObject } from "./openapi-walk.mjs";

function deepEqual(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Finds, in a real array, the element that the merged (union) document holds at a given index. */
function matchArrayElement(doc, array, merged, index) {
  if (merged === undefined) return index < array.length ? index : -1;
  if (isObject(merged) && typeof merged.name === "string" && typeof merged.in === "string") {
    return array.findIndex((item) => {
      const { node } = deref(doc, item, []);
      return node?.name === merged.name && node?.in === merged.in;
    });
  }
  if (isObject(merged) && typeof merged.$ref === "string") {
    const found = array.findIndex((item) => isObject(item) && item.$ref === merged.$ref);
    if (found >= 0) return found;
  }
  const equal = array.findIndex((item) => deepEqual(item, merged));
  if (equal >= 0) return equal;
  return isObject(merged) || Array.isArray(merged) ? (index < array.length ? index : -1) : -1;
}

/**
 * Walks a path reported by api-smart-diff (which dereferences $refs, merges allOf without $refs and
 * indexes arrays in a merged view) through one real document. Returns the JSON pointer of the place in
 * that document (inside a component when the path crosses a $ref) and the node there, or undefined
 * when the document has no such node (the missing tail is appended as is).
 */
export function locate(doc, merged, path) {
  const walk = (node, pointer, mergedNode, rest) => {
    if (rest.length === 0) return { pointer, node, found: true, depth: 0 };
    const resolved = deref(doc, node, pointer);
    const mergedResolved = deref(merged, mergedNode, []).node;
    const [key, ...tail] = rest;
    const { node: here, pointer: herePointer } = resolved;
    // api-smart-diff moves the keywords written next to `allOf` (a description, say) into a member of
    // its own after the real ones: `allOf/<n>/...` past the last member names the schema itself.
    const [index, ...afterIndex] = tail;
    if (
      key === "allOf" &&
      Array.isArray(here?.allOf) &&
      typeof index === "number" &&
      index >= here.allOf.length
    ) {
      const sibling = walk(here, herePointer, mergedResolved, afterIndex);
      if (sibling.found) return sibling;
    }
    let direct;
    if (Array.isArray(here) && typeof key === "number") {
      const index = matchArrayElement(doc, here, mergedResolved?.[key], key);
      if (index >= 0) {
        const inner = walk(here[index], [...herePointer, index], mergedResolved?.[key], tail);
        return { ...inner, depth: inner.depth + 1 };
      }
    } else if (isObject(here) && Object.hasOwn(here, key)) {
      const inner = walk(here[key], [...herePointer, key], mergedResolved?.[key], tail);
      direct = { ...inner, depth: inner.depth + 1 };
      if (inner.found || !Array.isArray(here.allOf)) return direct;
    }
    // api-smart-diff merges allOf members into one schema: look for the key in each member.
    if (isObject(here) && Array.isArray(here.allOf)) {
      let best;
      here.allOf.forEach((member, i) => {
        const attempt = walk(member, [...herePointer, "allOf", i], mergedResolved, rest);
        if (attempt.depth > 0 && (!best || (attempt.found && !best.found) || attempt.depth > best.depth)) {
          best = attempt;
        }
      });
      if (best && (!direct || (best.found && !direct.found) || best.depth > direct.depth)) return best;
    }
    if (direct) return direct;
    return { pointer: [...herePointer, ...rest], node: undefined, found: false, depth: 0 };
  };
  return walk(doc, [], merged, path);
}

/** The pointer of a located node once its own $ref (if any) is followed. */
export function resolvedPointer(doc, location) {
  return location.node === undefined ? location.pointer : deref(doc, location.node, location.pointer).pointer;
}
