// The workspace's test settings (client-tooling), with room for loopback setups.
import toolingConfig from "@cdas/client-tooling/vitest-config";
import { defineConfig, mergeConfig } from "vitest/config";

export default mergeConfig(toolingConfig, defineConfig({ test: { hookTimeout: 60_000 } }));
