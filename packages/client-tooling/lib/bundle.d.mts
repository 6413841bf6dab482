export interface ClientConfig {
  /** API name in redocly.yaml: the version (a name of spec/versions.json). */
  version: string;
  configPath: string;
  bundlePath: string;
  schemaPath: string;
  generatedDir: string;
}

export interface ParameterObject {
  name: string;
  in: "query" | "header" | "path" | "cookie";
  required?: boolean;
  schema?: SchemaObject;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
  [key: string]: unknown;
}

export type SchemaObject = Record<string, unknown>;

export interface BundleOperation {
  path: string;
  method: string;
  operationId: string;
  operation: Record<string, unknown>;
  parameters: ParameterObject[];
}

export type Bundle = Record<string, unknown> & { paths?: Record<string, unknown> };

export declare function readClientConfig(packageDir: string): ClientConfig;
export declare function readBundle(bundlePath: string): Bundle;
export declare function listOperations(bundle: Bundle): BundleOperation[];
/** A copy of the bundle without the X-Platform-Version header parameter (the clients send it). */
export declare function withoutVersionHeader(bundle: Bundle): Bundle;
