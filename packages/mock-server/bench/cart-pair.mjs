// The benchmarked cart case as autocannon requests (bench/run.mjs, bench/cost.mjs): each round creates a cart and
// adds one item to it, the second request addressed to the cart the first one answered.
export function cartPairRequests(headers, itemBody) {
  return [
    {
      method: "POST",
      path: "/shop/v1/cart",
      headers,
      body: "{}",
      onResponse: (_status, body, context) => {
        try {
          context.cartId = JSON.parse(body).id;
        } catch {}
      },
    },
    {
      method: "POST",
      headers,
      body: itemBody,
      setupRequest: (request, context) => ({ ...request, path: `/shop/v1/cart/${context.cartId}/items` }),
    },
  ];
}
