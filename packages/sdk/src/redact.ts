/** What the logger and the OpenTelemetry middleware never write out: credentials, secrets, tokens, signatures. */

const SECRET = /authorization|cookie|secret|token|password|signature|api-?key/i;

/** `[redacted]` in place of every secret query value of `url` (a signed asset link's `signature`, a token). */
export function redactUrl(url: string): string {
  const parsed = new URL(url);
  for (const name of [...parsed.searchParams.keys()])
    if (SECRET.test(name)) parsed.searchParams.set(name, "[redacted]");
  return parsed.href;
}

/** Headers as a plain object, `Authorization`, cookies and any key or token header shown as `[redacted]`. */
export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) out[name] = SECRET.test(name) ? "[redacted]" : value;
  return out;
}

/** A JSON or form body with every secret field (`client_secret`, `sessionToken`, …) shown as `[redacted]`. */
export function redactBody(text: string, contentType: string | null): string {
  if (/x-www-form-urlencoded/.test(contentType ?? "")) {
    const form = new URLSearchParams(text);
    for (const name of [...form.keys()]) if (SECRET.test(name)) form.set(name, "[redacted]");
    return form.toString();
  }
  try {
    return JSON.stringify(JSON.parse(text), (key, value) => (key && SECRET.test(key) ? "[redacted]" : value));
  } catch {
    return text;
  }
}
