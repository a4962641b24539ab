import { describe, expect, it } from "vitest";
import { isSignedLink } from "../../src/ui/parts/AssetLink";

const now = Date.parse("2026-11-22T10:00:00Z");
const seconds = now / 1000;
const signature = "x".repeat(43);
const ticket = "https://api.entrada.test/assets/v1/tickets/tkt_1.pdf";

describe("signed asset links (contract: ?expires=<unix seconds>&signature=…)", () => {
  it("a signed link before its expiry opens as a plain link", () => {
    expect(isSignedLink(`${ticket}?expires=${seconds + 3600}&signature=${signature}`, now)).toBe(true);
  });

  it("an expired, unsigned or unparsable link goes through the authenticated download", () => {
    expect(isSignedLink(`${ticket}?expires=${seconds - 1}&signature=${signature}`, now)).toBe(false);
    expect(isSignedLink(`${ticket}?expires=${seconds}&signature=${signature}`, now)).toBe(false);
    expect(isSignedLink(`${ticket}?signature=${signature}`, now)).toBe(false);
    expect(isSignedLink(`${ticket}?expires=soon&signature=${signature}`, now)).toBe(false);
    expect(isSignedLink(`${ticket}?expires=${seconds + 3600}`, now)).toBe(false);
    expect(isSignedLink(ticket, now)).toBe(false);
    expect(isSignedLink("/assets/v1/tickets/tkt_1.pdf?expires=1&signature=x", now)).toBe(false);
  });
});
