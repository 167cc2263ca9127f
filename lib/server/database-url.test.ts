import { describe, expect, it } from "vitest";
import { redactDatabaseUrl } from "../store/postgres-errors";
import { chooseStore } from "./database-url";

describe("chooseStore", () => {
  it("opens SQLite under the data directory when DATABASE_URL is unset or blank", () => {
    expect(chooseStore({}, "/data")).toEqual({ kind: "sqlite", path: "/data/wirescope.db" });
    expect(chooseStore({ DATABASE_URL: "  " }, "/data")).toMatchObject({ kind: "sqlite" });
  });

  it("opens PostgreSQL for postgres:// and postgresql:// URLs, shown without the password", () => {
    const url = "postgres://team:s3cret@db.internal:5432/wirescope";
    expect(chooseStore({ DATABASE_URL: url }, "/data")).toEqual({
      kind: "postgres",
      url,
      shown: "postgres://team:***@db.internal:5432/wirescope",
    });
    expect(
      chooseStore({ DATABASE_URL: "postgresql://localhost/wirescope" }, "/data"),
    ).toMatchObject({ kind: "postgres" });
    // A socket directory as the host parameter (libpq style).
    expect(
      chooseStore({ DATABASE_URL: "postgres:///wirescope?host=/var/run/postgresql" }, "/d"),
    ).toMatchObject({ kind: "postgres" });
  });

  it("refuses other values, naming DATABASE_URL and never echoing it", () => {
    for (const value of ["mysql://root:pw123@h/db", "not a url pw123", "postgres:///db"]) {
      let error: unknown;
      try {
        chooseStore({ DATABASE_URL: value }, "/data");
      } catch (caught) {
        error = caught;
      }
      expect(error).toMatchObject({ code: "misconfigured", message: /^DATABASE_URL / });
      expect((error as Error).message).not.toContain("pw123");
    }
  });
});

describe("redactDatabaseUrl", () => {
  it("hides passwords in the userinfo and in parameters", () => {
    expect(redactDatabaseUrl("postgres://u:p@h:1/d?sslmode=require&password=x")).toBe(
      "postgres://u:***@h:1/d?sslmode=require&password=***",
    );
    expect(redactDatabaseUrl("postgres://u@h/d")).toBe("postgres://u@h/d");
    expect(redactDatabaseUrl("user=u password=p")).toBe("(not a URL)");
  });
});
