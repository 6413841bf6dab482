/** Bytes of dist/index.js bundled for a browser (a Node built-in fails the build), minified and gzipped. */
export declare function browserBundleGzipBytes(packageDir: string, external?: string[]): Promise<number>;
/** Bytes of the package's own code alone: bundled as above with every dependency in its package.json left out. */
export declare function ownCodeGzipBytes(packageDir: string): Promise<number>;
