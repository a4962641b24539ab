import { describe, expect, it } from "vitest";
import { createShopClient, EntradaProblemError, isProblem, responseError } from "../../src/shop.ts";

/** A shop client whose server answers every request with `response`. */
const clientAnswering = (response: () => Response) =>
  createShopClient({ baseUrl: "https://api.test", sessionToken: "tok", fetch: async () => response() });

describe("responseError: a failed client.fetch response as the SDK's typed error", () => {
  it("reads problem details into an EntradaProblemError naming the request", async () => {
    const client = clientAnswering(() =>
      Response.json(
        {
          type: "https://docs.entrada.dev/problems/not-found",
          title: "Not found",
          status: 404,
          detail: "No ticket tkt_9",
          logId: "log_body",
        },
        {
          status: 404,
          headers: {
            "content-type": "application/problem+json",
            "x-log-id": "log_1",
            "content-language": "en-GB",
          },
        },
      ),
    );
    const url = "https://api.test/assets/v1/tickets/tkt_9.pdf";
    const error = await responseError(await client.fetch(url), { method: "GET", url });
    expect(error).toBeInstanceOf(EntradaProblemError);
    expect(isProblem(error, "not-found")).toBe(true);
    expect(error).toMatchObject({
      status: 404,
      logId: "log_1",
      contentLanguage: "en-GB",
      detail: "No ticket tkt_9",
    });
    expect(error.message).toBe("GET /assets/v1/tickets/tkt_9.pdf → 404 not-found: No ticket tkt_9");
  });

  it("keeps a body that is not problem details as an unexpected-body error", async () => {
    const client = clientAnswering(
      () => new Response("<h1>Bad gateway</h1>", { status: 502, headers: { "content-type": "text/html" } }),
    );
    // 502 is retried by the transport; the last answer is the one resolved.
    const error = await responseError(
      await client.fetch("/assets/v1/orders/ord_1/receipt", { retry: false }),
    );
    expect(error).toMatchObject({ kind: "unexpected-body", status: 502, body: "<h1>Bad gateway</h1>" });
  });
});
