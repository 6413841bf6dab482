// Types of index.js: the version registry (spec/versions.json, dist/versions.json).

/** Version names are `v` and a number. */
export declare const VERSION_NAME: RegExp;
/** The registry's file name, in spec/ and in every bundle folder. */
export declare const REGISTRY_FILE: "versions.json";

export interface VersionEntry {
  name: string;
  /** The version whose sources and sandbox shapes this one starts from; null for the first. */
  basedOn: string | null;
  /** camelCase property names the interface gives in this version (allowed by the casing lint rule); without the key in versions.json, those of `basedOn`. */
  camelCaseProperties: string[];
}

export interface VersionRegistry {
  /** Where it was read from, for messages. */
  source: string;
  /** Names in release order. */
  versions: string[];
  /** The version the sandbox serves when a request sends no X-Platform-Version header. */
  default: string;
  entries: ReadonlyMap<string, VersionEntry>;
  /** The entry of a version; fails, naming the known versions, for another name. */
  entry(version: string): VersionEntry;
  /** The versions `version` is built from through `basedOn`, root first, ending with itself. */
  lineage(version: string): string[];
}

/** Checks a parsed registry; fails with a message naming the wrong entry. */
export declare function parseRegistry(json: unknown, source?: string): VersionRegistry;
/** Reads and checks `<folder>/versions.json` (spec/, or a bundle folder such as spec/dist). */
export declare function readRegistry(folder: string): VersionRegistry;
