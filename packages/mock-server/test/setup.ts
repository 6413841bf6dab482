/** Every test must assert: a test that runs no expectation fails. */
import { beforeEach, expect } from "vitest";

beforeEach(() => expect.hasAssertions());
