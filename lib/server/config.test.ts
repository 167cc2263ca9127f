import { describe, expect, it } from "vitest";
import { DEFAULT_LEASE_MS, DEFAULT_POLL_MS, readConfig } from "./config";

describe("readConfig: several instances", () => {
  it("reads the lease and the poll interval; below their floors or not numbers, the defaults", () => {
    expect(readConfig({})).toMatchObject({ leaseMs: DEFAULT_LEASE_MS, pollMs: DEFAULT_POLL_MS });
    expect(readConfig({ WIRESCOPE_LEASE_MS: "4000", WIRESCOPE_POLL_MS: "50" })).toMatchObject({
      leaseMs: 4000,
      pollMs: 50,
    });
    // A lease shorter than a second would let a busy instance's runs be taken for dead.
    expect(readConfig({ WIRESCOPE_LEASE_MS: "10", WIRESCOPE_POLL_MS: "0" })).toMatchObject({
      leaseMs: DEFAULT_LEASE_MS,
      pollMs: DEFAULT_POLL_MS,
    });
    expect(readConfig({ WIRESCOPE_LEASE_MS: "soon", WIRESCOPE_POLL_MS: " " })).toMatchObject({
      leaseMs: DEFAULT_LEASE_MS,
      pollMs: DEFAULT_POLL_MS,
    });
  });
});
