/** Fetch `Headers`, or a plain object such as Node's `req.headers` (any key case; arrays are joined). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export const header = (headers: WebhookHeaders, name: string): string | undefined => {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  let value = record[name];
  if (value === undefined) {
    for (const k in record) if (k.toLowerCase() === name) value = record[k];
  }
  return Array.isArray(value) ? value.join(" ") : value;
};
