// Two places where the contract promised what the RFCs forbid (found by clients nobody on the team wrote, issue 18).
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { deref, type JsonObject, loadDocument } from "./document";

const document = loadDocument("openapi.json");
const components = document.components as JsonObject;

describe("WWW-Authenticate (RFC 6750 §3.1)", () => {
  const header = (components.headers as JsonObject)["WWW-Authenticate"] as JsonObject;
  const description = String(header.description);

  it('does not promise error="invalid_token" for a request that sent no token', () => {
    // §3.1: "If the request lacks any authentication information … the resource server SHOULD NOT include an
    // error code or other error information."
    expect(description).not.toMatch(
      /missing, invalid or expired token gives\s+`Bearer realm="entrada", error=/,
    );
    expect(description).toMatch(/no token[^.]*`Bearer realm="entrada"`/i);
    expect(description).toMatch(/invalid or expired[^.]*error="invalid_token"/);
  });

  it("the 401 response's example challenge is the bare one a missing token gets", () => {
    expect(String(header.example)).toBe('Bearer realm="entrada"');
  });
});

describe("TokenRequest (RFC 6749 §3.2: the server MUST ignore unrecognized request parameters)", () => {
  const ajv = new Ajv2020({ strict: false });
  const schema = deref(document, (components.schemas as JsonObject).TokenRequest) as JsonObject;
  const validate = ajv.compile(schema);

  it("accepts a form with a field it does not know (e.g. `audience`)", () => {
    expect(validate({ grant_type: "client_credentials", scope: "Shop", audience: "entrada" })).toBe(true);
  });

  it("still rejects a missing or wrong grant_type", () => {
    expect(validate({ scope: "Shop" })).toBe(false);
    expect(validate({ grant_type: "password" })).toBe(false);
  });
});
