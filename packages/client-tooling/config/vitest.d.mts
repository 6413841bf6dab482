// Types of vitest.mjs: the shared test settings of the workspace's TypeScript packages.
import type { UserConfig } from "vitest/config";

declare const config: UserConfig;
export default config;
