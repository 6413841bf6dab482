// Every test of a suite built on this config (the clients', the SDK's, the sandbox's) asserts something:
// a test that runs no expectation fails.
import { beforeEach, expect } from "vitest";

beforeEach(() => {
  expect.hasAssertions();
});
