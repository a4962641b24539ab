/**
 * The test event of a kind (`sendWebhookTestEvent`, `entrada-mock trigger`): the contract's example payload made
 * current — every time inside `data` moved by one offset so the latest is the mock clock's now (the example's
 * spacing kept: an order is created before it is paid) — and every id replaced by a fresh one of the same prefix
 * (the same example id always by the same new id, so references inside the payload still agree). A receiver that
 * dates conversions or dedupes by order then sees a new, current order each time.
 */

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^([a-z][a-z0-9]{1,5})_[0-9A-Za-z]{10,60}$/;
const DAY = 86_400_000;

function walk(value: unknown, visit: (text: string) => string): unknown {
  if (typeof value === "string") return visit(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, visit));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, visit)]));
  return value;
}

/** The latest date-time inside `value` (epoch ms), or undefined when it has none. */
function latest(value: unknown): number | undefined {
  let max: number | undefined;
  walk(value, (text) => {
    if (DATE_TIME.test(text)) {
      const t = Date.parse(text);
      if (!Number.isNaN(t) && (max === undefined || t > max)) max = t;
    }
    return text;
  });
  return max;
}

/** `data` re-dated to `now` and with fresh ids from `newId(prefix)`. */
export function currentExample(data: unknown, now: number, newId: (prefix: string) => string): unknown {
  const last = latest(data);
  const shift = last === undefined ? 0 : now - last;
  const ids = new Map<string, string>();
  return walk(data, (text) => {
    if (DATE_TIME.test(text)) return new Date(Date.parse(text) + shift).toISOString();
    if (DATE.test(text)) {
      const day = Date.parse(`${text}T00:00:00Z`) + Math.round(shift / DAY) * DAY;
      return new Date(day).toISOString().slice(0, 10);
    }
    const id = ID.exec(text);
    if (id) {
      let fresh = ids.get(text);
      if (!fresh) {
        fresh = newId(id[1] as string);
        ids.set(text, fresh);
      }
      return fresh;
    }
    return text;
  });
}
