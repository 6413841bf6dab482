// Every test of the SDK must assert something: a test that asserts nothing fails.
import { beforeEach, expect } from "vitest";

beforeEach(() => {
  expect.hasAssertions();
});
