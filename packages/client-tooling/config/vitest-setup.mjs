// Every client test asserts something: a test that runs no expectation fails.
import { beforeEach, expect } from "vitest";

beforeEach(() => {
  expect.hasAssertions();
});
