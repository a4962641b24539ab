/** `Accept-Language`: the call's `locale`, else the request's own header, else the client's default culture. */

import { InvalidArgumentError } from "../errors.ts";
import { checkedLocale } from "../locale.ts";
import type { Unit } from "../types.ts";

export function language(clientLocale: string | undefined): Unit {
  return (next) => (request, call) => {
    const headers = request.headers;
    const locale =
      checkedLocale(call.options.locale, (problem) => {
        throw new InvalidArgumentError("locale", problem, call.info());
      }) ??
      (!headers.has("accept-language") && clientLocale);
    if (locale) headers.set("accept-language", locale);
    return next(request, call);
  };
}
