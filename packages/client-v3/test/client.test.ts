import { fileURLToPath } from "node:url";
import { describeClient, describePackageChecks } from "@cdas/client-tooling/testing";
import { createClient, pagination } from "../src/index.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

describeClient({ packageDir, createClient, pagination });
describePackageChecks(packageDir);
