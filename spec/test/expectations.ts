// A small language for what the interface spec says about a field, and the check of a schema against it.
import { expect } from "vitest";
import { type Flat, flatten, type Node } from "./helpers";

type ScalarType = "string" | "number" | "integer" | "boolean";

export type Expectation =
  | {
      kind: "scalar";
      type: ScalarType;
      nullable: boolean;
      /** "none": the interface names a date or timestamp without its format, so no `format` either. */
      format?: "date" | "date-time" | "none";
      /** The complete set of values (a closed enum). */
      closed?: string[];
      /** Values the schema must accept; an enum, if any, must contain them ("e.g. X", a const). */
      accepts?: string[];
      /** Values shown but the set is not complete or not shown: no enum at all. */
      open?: boolean;
      /**
       * The interface names the field without a type and its text implies this one: the field's
       * description must say so ("The interface names it without a type; a string, as ...").
       */
      implied?: boolean;
      minimum?: number;
      maximum?: number;
    }
  | {
      kind: "object";
      fields: Record<string, Expectation>;
      /** Other fields exist but are not shown: additionalProperties must not be false. */
      extensible?: boolean;
    }
  | { kind: "array"; items: Expectation }
  /** An object whose contents the interface does not list. */
  | { kind: "anyObject" }
  /**
   * A field the interface names without a type (and whose type it does not imply): present, no type,
   * no invented enum, and a description that says the type is not documented. `bare`: an array's
   * items, whose array carries the description.
   */
  | { kind: "untyped"; bare?: boolean };

const scalar = (
  type: ScalarType,
  extra: Partial<Extract<Expectation, { kind: "scalar" }>> = {},
): Expectation => ({
  kind: "scalar",
  type,
  nullable: false,
  ...extra,
});

export const str = scalar("string");
export const num = scalar("number");
export const int = scalar("integer");
export const bool = scalar("boolean");
export const date = scalar("string", { format: "date" });
export const dateTime = scalar("string", { format: "date-time" });
/** A date or timestamp the interface gives without `YYYY-MM-DD` or ISO 8601: a string, no format. */
export const unformattedDate = scalar("string", { format: "none" });
export const untyped: Expectation = { kind: "untyped" };
/** Items of an array whose item type the interface does not give (the array's description says so). */
export const untypedItems: Expectation = { kind: "untyped", bare: true };
/** A string the interface names without a type but implies (the description says what implies it). */
export const impliedStr = scalar("string", { implied: true });
/** A date named without a type (a string by "dates are strings"), without a format. */
export const impliedUnformattedDate = scalar("string", { format: "none", implied: true });

/** What a description says of a field the interface leaves untyped. */
export const UNTYPED_WORDS = /\btype (and values )?((is|are) )?not documented by the interface/i;
/** What a description says of a type the interface implies: the words, then what implies it. */
export const IMPLIED_WORDS = /\bnames it without a type; an? (string|number|integer|boolean), as \S/;
export const anyObject: Expectation = { kind: "anyObject" };
/** A string with a closed set of values. */
export const oneOf = (...values: string[]) => scalar("string", { closed: values });
/** A string whose values are only examples or not shown: no enum may be invented. */
export const openString = scalar("string", { open: true });
/** A string that must accept these values (an enum, if any, contains them). */
export const accepting = (...values: string[]) => scalar("string", { accepts: values });
export const nullable = (e: Expectation): Expectation => {
  if (e.kind !== "scalar") throw new Error("nullable applies to scalars");
  return { ...e, nullable: true };
};
export const withRange = (e: Expectation, minimum: number, maximum: number): Expectation => {
  if (e.kind !== "scalar") throw new Error("a range applies to scalars");
  return { ...e, minimum, maximum };
};
export const obj = (fields: Record<string, Expectation>): Expectation => ({ kind: "object", fields });
export const extensibleObj = (fields: Record<string, Expectation>): Expectation => ({
  kind: "object",
  fields,
  extensible: true,
});
export const arr = (items: Expectation): Expectation => ({ kind: "array", items });
/** An object whose listed fields are all strings. */
export const strings = (...names: string[]) => Object.fromEntries(names.map((name) => [name, str]));
/** Fields named without types. */
export const untypedFields = (...names: string[]) => Object.fromEntries(names.map((name) => [name, untyped]));

/** One row of a table-driven test: a field path below a root schema and what it must be. */
export interface FieldRow {
  /** Human-readable path, e.g. `addresses[].paf.postcode`. */
  field: string;
  path: string[];
  expectation: Expectation;
}

/** Flattens an expectation tree into rows (the root object itself is the row with field "(object)"). */
export function fieldRows(expectation: Expectation, path: string[] = []): FieldRow[] {
  const field = path.length ? path.join(".").replaceAll(".[]", "[]") : "(object)";
  const rows: FieldRow[] = [{ field, path, expectation }];
  if (expectation.kind === "object") {
    for (const [name, child] of Object.entries(expectation.fields))
      rows.push(...fieldRows(child, [...path, name]));
  } else if (expectation.kind === "array") {
    rows.push(...fieldRows(expectation.items, [...path, "[]"]));
  }
  return rows;
}

const sorted = (set: Iterable<unknown>) => [...set].map(String).sort();

/** Asserts one schema against one expectation (not recursing: rows cover the children). */
export function expectSchema(
  doc: Node,
  schema: Node | undefined,
  expectation: Expectation,
  where: string,
): void {
  expect(schema, `${where}: missing`).toBeDefined();
  const flat: Flat = flatten(doc, schema);
  switch (expectation.kind) {
    case "untyped":
      expect(flat.enum, `${where}: the interface gives no values, so no enum`).toBeUndefined();
      expect(
        sorted(flat.types ?? []),
        `${where}: the interface gives no type (and implies none), so the type stays open`,
      ).toEqual([]);
      if (!expectation.bare)
        expect(flat.description ?? "", `${where}: the description says the type is not documented`).toMatch(
          UNTYPED_WORDS,
        );
      return;
    case "anyObject":
      expect(sorted(flat.types ?? []), `${where}: type`).toEqual(["object"]);
      return;
    case "array":
      expect(sorted(flat.types ?? []), `${where}: type`).toEqual(["array"]);
      expect(flat.items, `${where}: items`).toBeDefined();
      return;
    case "object": {
      expect(sorted(flat.types ?? []), `${where}: type`).toEqual(["object"]);
      expect(
        Object.keys(flat.properties).sort(),
        `${where}: property set (extra = not in the interface)`,
      ).toEqual(Object.keys(expectation.fields).sort());
      if (expectation.extensible) {
        expect(
          flat.additionalProperties,
          `${where}: other fields exist, so additionalProperties not false`,
        ).not.toBe(false);
      }
      return;
    }
    case "scalar": {
      const types = [expectation.type, ...(expectation.nullable ? ["null"] : [])].sort();
      expect(sorted(flat.types ?? ["(unconstrained)"]), `${where}: type`).toEqual(types);
      if (expectation.format === "none") expect(flat.format, `${where}: no format given`).toBeUndefined();
      else if (expectation.format) expect(flat.format, `${where}: format`).toBe(expectation.format);
      const values = flat.enum?.filter((value) => value !== null);
      if (expectation.closed) {
        expect(sorted(values ?? ["(no enum)"]), `${where}: enum`).toEqual([...expectation.closed].sort());
      } else if (expectation.accepts) {
        if (values)
          for (const value of expectation.accepts) expect(values, `${where}: enum`).toContain(value);
      } else {
        // Plain or open values: the interface lists no (complete) set, so an enum would be invented.
        expect(values, `${where}: no enum (the interface gives no complete set of values)`).toBeUndefined();
      }
      if (expectation.implied)
        expect(
          flat.description ?? "",
          `${where}: the interface names it without a type, so the description says what implies ${expectation.type}`,
        ).toMatch(
          new RegExp(IMPLIED_WORDS.source.replace("(string|number|integer|boolean)", expectation.type)),
        );
      if (expectation.minimum !== undefined)
        expect(flat.minimum, `${where}: minimum`).toBe(expectation.minimum);
      if (expectation.maximum !== undefined)
        expect(flat.maximum, `${where}: maximum`).toBe(expectation.maximum);
      return;
    }
  }
}
