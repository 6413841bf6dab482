// Every spec test must assert something: a test whose body never reaches an expect fails.
import { beforeEach, expect } from "vitest";

beforeEach(() => {
  expect.hasAssertions();
});
