import { fileURLToPath } from "node:url";
import { describeEveryOperation, describePackageChecks } from "@cdas/client-tooling/testing";
import { createClient, pagination } from "../src/index.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

describeEveryOperation({ packageDir, createClient, pagination });
describePackageChecks(packageDir);
