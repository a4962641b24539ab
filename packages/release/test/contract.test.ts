import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { bundleContract } from "../src/contract/bundle.ts";
import { classifyContractChanges } from "../src/contract/classify.ts";
import {
  BASELINE,
  CONTRACT_CHANGESET,
  checkContract,
  contractChangeset,
  DECISIONS,
} from "../src/contract/gate.ts";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
// The real contract: the classifier is tested on the document it guards.
const released = JSON.parse(readFileSync(path.join(repo, "packages/openapi/generated/openapi.json"), "utf8"));
// biome-ignore lint/suspicious/noExplicitAny: documents are edited as plain JSON
const edit = (change: (document: any) => void) => {
  const document = structuredClone(released);
  change(document);
  return document;
};
const summary = (after: unknown) =>
  classifyContractChanges(released, after).map((c) => `${c.kind} ${c.location}: ${c.message}`);

describe("classifyContractChanges", () => {
  it("finds nothing between a contract and itself, nor in prose", () => {
    expect(summary(structuredClone(released))).toEqual([]);
    expect(
      summary(
        edit((d) => {
          d.components.schemas.Cart.description = "Another text.";
          d.paths["/shop/v1/cart"].post.summary = "Make a cart";
        }),
      ),
    ).toEqual([]);
  });

  it("calls a removed response field breaking, once, at its schema", () => {
    const after = edit((d) => {
      delete d.components.schemas.Cart.properties.currency;
      d.components.schemas.Cart.required = d.components.schemas.Cart.required.filter(
        (n: string) => n !== "currency",
      );
    });
    expect(classifyContractChanges(released, after)).toEqual([
      {
        kind: "breaking",
        subject: "Cart",
        location: "schema Cart",
        pointer: "#/components/schemas/Cart/properties/currency",
        message: "`Cart`: property `currency` removed",
      },
    ]);
  });

  it("tells a response field added (fine) from a required request field added (breaking)", () => {
    const after = edit((d) => {
      d.components.schemas.Cart.properties.note = { type: "string" };
      const byId = d.components.schemas.AddCartItemByArticleId;
      byId.properties.channel = { type: "string" };
      byId.required = [...byId.required, "channel"];
    });
    expect(summary(after)).toEqual([
      "non-breaking schema Cart: `Cart`: property `note` added",
      "breaking schema AddCartItemByArticleId: `AddCartItemByArticleId`: required property `channel` added",
    ]);
  });

  it("classifies parameters, operation ids, statuses, enums and deprecations", () => {
    const after = edit((d) => {
      const list = d.paths["/shop/v1/discovery/events"].get;
      list.parameters.push({ name: "city", in: "query", required: false, schema: { type: "string" } });
      list.parameters.push({ name: "region", in: "query", required: true, schema: { type: "string" } });
      const include = list.parameters.find((p: { name?: string }) => p.name === "include");
      include.schema.items.enum = ["slots"];
      d.paths["/shop/v1/cart"].post.operationId = "makeCart";
      d.paths["/shop/v1/cart/{id}"].get.deprecated = true;
      d.paths["/shop/v1/cart/{id}"].get["x-sunset"] = "2027-06-01";
      delete d.paths["/shop/v1/cart/{id}"].get.responses["200"];
    });
    expect(new Set(summary(after))).toEqual(
      new Set([
        'breaking GET /shop/v1/discovery/events: query parameter `include`[]: value "assortments" removed',
        "non-breaking GET /shop/v1/discovery/events: query parameter `city` added",
        "breaking GET /shop/v1/discovery/events: required query parameter `region` added",
        "breaking POST /shop/v1/cart: operationId `createCart` renamed to `makeCart` (the SDK's method name)",
        "breaking GET /shop/v1/cart/{id}: response 200 removed",
        "deprecated GET /shop/v1/cart/{id}: operation deprecated (sunset 2027-06-01)",
      ]),
    );
  });

  it("reads nullability, types and variants by direction", () => {
    const doc = (status: object, body: object) => ({
      paths: {
        "/things": {
          post: {
            operationId: "makeThing",
            requestBody: { content: { "application/json": { schema: body } } },
            responses: { "201": { content: { "application/json": { schema: status } } } },
          },
        },
      },
    });
    const before = doc(
      {
        type: "object",
        properties: { a: { type: "string" }, b: { oneOf: [{ type: "string" }, { type: "null" }] } },
      },
      {
        type: "object",
        properties: { c: { type: ["string", "null"] }, d: { type: "string", maxLength: 10 } },
      },
    );
    const after = doc(
      { type: "object", properties: { a: { type: ["string", "null"] }, b: { type: "string" } } },
      { type: "object", properties: { c: { type: "string" }, d: { type: "string", maxLength: 5 } } },
    );
    expect(classifyContractChanges(before, after).map((c) => `${c.kind}: ${c.message}`)).toEqual([
      "breaking: request body.c may no longer be null",
      "breaking: request body.d: maxLength 10 → 5",
      "breaking: response 201.a may now be null",
      "non-breaking: response 201.b: oneOf lost a variant",
    ]);
    expect(classifyContractChanges(after, before).map((c) => `${c.kind}: ${c.message}`)).toEqual([
      "non-breaking: request body.c may now be null",
      "non-breaking: request body.d: maxLength 5 → 10",
      "non-breaking: response 201.a may no longer be null",
      "breaking: response 201.b: oneOf gained a variant",
    ]);
  });

  it("calls removed operations, schemas and webhook events breaking and new ones not", () => {
    const after = edit((d) => {
      delete d.paths["/shop/v1/discovery/venues"];
      delete d.webhooks[Object.keys(d.webhooks)[0] as string];
      d.components.schemas.Extra = { type: "object" };
    });
    const lines = summary(after);
    expect(lines).toContain("breaking GET /shop/v1/discovery/venues: operation removed");
    expect(lines.filter((l) => l.includes("webhook event removed"))).toHaveLength(1);
    expect(lines).toContain("non-breaking schema Extra: schema `Extra` added");
  });
});

describe("the contract gate", () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  function workspace(): string {
    root = mkdtempSync(path.join(tmpdir(), "entrada-contract-"));
    mkdirSync(path.join(root, path.dirname(BASELINE)), { recursive: true });
    mkdirSync(path.join(root, ".changeset"));
    writeFileSync(path.join(root, BASELINE), JSON.stringify(released));
    writeFileSync(path.join(root, DECISIONS), "# Decisions\n\n## Shop\n\nText.\n");
    return root;
  }

  const withoutCurrency = edit((d) => {
    delete d.components.schemas.Cart.properties.currency;
  });

  it("passes an unchanged contract and fails a stale changeset", () => {
    const r = workspace();
    expect(checkContract(r, released).errors).toEqual([]);
    writeFileSync(path.join(r, CONTRACT_CHANGESET), "---\n---\n");
    expect(checkContract(r, released).errors[0]).toContain(
      "run `pnpm contract:changeset` (it removes the file)",
    );
  });

  it("fails a removed response field naming it, and passes with the major changeset and a DECISIONS entry", () => {
    const r = workspace();
    const first = checkContract(r, withoutCurrency).errors;
    expect(first).toHaveLength(2);
    expect(first[0]).toContain("schema Cart: `Cart`: property `currency` removed");
    expect(first[0]).toContain("run `pnpm contract:changeset`");
    expect(first[1]).toContain("breaking change to `Cart`");

    const changes = checkContract(r, withoutCurrency).changes;
    const changeset = contractChangeset(changes);
    expect(changeset).toContain(
      '"@entrada/openapi": major\n"@entrada/sdk": major\n"@entrada/mock-server": major',
    );
    writeFileSync(path.join(r, CONTRACT_CHANGESET), changeset);
    expect(checkContract(r, withoutCurrency).errors).toEqual([
      expect.stringContaining("has no entry in packages/openapi/DECISIONS.md"),
    ]);
    writeFileSync(
      path.join(r, DECISIONS),
      "# Decisions\n\n## Breaking changes\n\n- 2.0.0: `Cart` lost `currency` (every cart is CHF).\n\n## Shop\n",
    );
    expect(checkContract(r, withoutCurrency).errors).toEqual([]);
  });

  it("fails a changeset bumped below major for a break, and one out of step with the contract", () => {
    const r = workspace();
    const changes = checkContract(r, withoutCurrency).changes;
    writeFileSync(
      path.join(r, CONTRACT_CHANGESET),
      contractChangeset(changes).replaceAll(": major", ": minor"),
    );
    expect(checkContract(r, withoutCurrency).errors).toContain(
      'breaking contract changes need `"@entrada/sdk": major` in .changeset/contract-changes.md (it has minor): run `pnpm contract:changeset`',
    );
    const other = edit((d) => {
      d.components.schemas.Cart.properties.note = { type: "string" };
    });
    expect(checkContract(r, other).errors[0]).toContain("is out of date with the contract");
  });

  it("keeps the author's text when the changeset is rewritten", () => {
    const changes = classifyContractChanges(released, withoutCurrency);
    const first = contractChangeset(changes).replace(
      "The contract changed",
      "Carts are CHF only. The contract changed",
    );
    expect(contractChangeset(changes, first)).toContain("Carts are CHF only.");
  });
});

describe("bundleContract", () => {
  it("names the file and the fix when the contract no longer bundles", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "entrada-bundle-"));
    try {
      writeFileSync(
        path.join(dir, "openapi.yaml"),
        'openapi: 3.1.0\ninfo: {title: x, version: "1"}\npaths:\n  /a:\n    get:\n      operationId: a\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema:\n                $ref: "./missing.yaml#/Thing"\n',
      );
      const source = path.join(dir, "openapi.yaml");
      await expect(bundleContract(repo, source)).rejects.toThrow(
        new RegExp(
          `^the contract no longer bundles \\(${source.replaceAll(".", "\\.")}\\):\\n[\\s\\S]*run \`pnpm generate\`$`,
        ),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
