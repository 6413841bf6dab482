// Type-level views over a client's generated types, for the type tests every version runs over all of
// its operations and schemas.

/** The keys of a responses map that are errors: 4xx, 5xx and `default`. */
type ErrorStatus<Responses> = {
  [Status in keyof Responses]: `${Status & (string | number)}` extends `4${string}` | `5${string}` | "default"
    ? Status
    : never;
}[keyof Responses];

type BodyOf<Response> = Response extends { content: infer Content } ? Content[keyof Content] : never;

type ErrorBody<Operation> = Operation extends { responses: infer Responses }
  ? BodyOf<Responses[ErrorStatus<Responses>]>
  : never;

/**
 * Per operation id, the type of `error.message` over every documented error body: `string` when each
 * body is a documented error shape; `"no message"` joins the union when one body lacks it, and an
 * operation with no error body at all gives `never`.
 */
export type ErrorMessages<Operations> = {
  [Id in keyof Operations]: ErrorBody<Operations[Id]> extends infer Body
    ? Body extends { message: infer Message }
      ? Message
      : "no message"
    : never;
};

/** The keys an object names (not those of an index signature). */
type NamedKeys<T> = {
  [Key in keyof T]-?: string extends Key ? never : number extends Key ? never : Key;
}[keyof T];

/**
 * Where a type accepts keys it does not name: the dotted path of every object below `T` whose string
 * index signature holds something (an index signature of `never` names no key and accepts none). An
 * object that names no key and holds `unknown` is one whose fields the interface does not document
 * (`Record<string, unknown>`): it hides no renamed field, so it is not counted.
 */
type OpenAt<T, Path extends string> = T extends readonly (infer Item)[]
  ? OpenAt<Item, `${Path}[]`>
  : T extends object
    ?
        | (string extends keyof T
            ? [T[string & keyof T]] extends [never]
              ? never
              : [NamedKeys<T>] extends [never]
                ? unknown extends T[string & keyof T]
                  ? never
                  : Path
                : Path
            : never)
        | { [Key in keyof T & string]-?: OpenAt<NonNullable<T[Key]>, `${Path}.${Key}`> }[keyof T & string]
    : never;

/** Every schema path (`Schema.field.sub`) whose type has a string index signature: a map. */
export type OpenPaths<Schemas> = {
  [Name in keyof Schemas & string]: OpenAt<Schemas[Name], Name>;
}[keyof Schemas & string];
