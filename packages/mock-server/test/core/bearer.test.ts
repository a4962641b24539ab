/** Reading the token of an Authorization header: the last header's token is kept, never another header's. */
import { describe, expect, it } from "vitest";
import { parseBearer } from "../../src/core/pipeline/authentication.ts";

describe("parseBearer", () => {
  it("gives each header its own token, also when headers alternate and repeat", () => {
    const sequence: Array<[string, string | null]> = [
      ["Bearer tok_A.1", "tok_A.1"],
      ["Bearer tok_A.1", "tok_A.1"],
      ["Basic ZGVtbzpzZWNyZXQ=", null],
      ["Basic ZGVtbzpzZWNyZXQ=", null],
      ["Bearer tok_A.1", "tok_A.1"],
      ["bearer   tok_B~2==  ", "tok_B~2=="],
      ["Bearer tok_A.1 extra", null],
      ["Bearer tok_A.1", "tok_A.1"],
      ["Bearer ", null],
    ];
    // Headers arrive as new strings each request: build each one anew.
    for (const [header, token] of sequence) expect(parseBearer([...header].join("")), header).toBe(token);
  });
});
