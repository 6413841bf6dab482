/** Bytes of dist/index.js bundled for a browser (a Node built-in fails the build), minified and gzipped. */
export declare function browserBundleGzipBytes(packageDir: string, external?: string[]): Promise<number>;
