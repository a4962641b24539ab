/**
 * After the answer: a success answer of a deprecated operation, or of a call that used a deprecated query parameter,
 * gets `Deprecation`, `Sunset` and `Link` (DECISIONS.md "Versions and deprecations"; ../deprecation.ts), so an
 * integrator's logs and the SDK see what the reference says.
 */
import {
  changelogOf,
  deprecationDates,
  deprecationHeaders,
  operationDeprecationHeaders,
} from "../deprecation.ts";
import { getPointer, type OpenApiDocument } from "../document.ts";
import type { Exchange, Stage } from "./exchange.ts";

export function markDeprecated(services: { document: OpenApiDocument }): Stage {
  const changelog = changelogOf(services.document);
  return (ex: Exchange) => {
    const response = ex.response;
    if (!response || response.status < 200 || response.status >= 300) return;
    let headers = operationDeprecationHeaders(services.document, ex.op);
    if (!headers) {
      for (const param of ex.op.params) {
        if (param.in !== "query" || !(param.name in ex.query)) continue;
        const dates = deprecationDates(parameterAt(services.document, param.schemaPointer));
        if (dates) {
          headers = deprecationHeaders(dates, changelog);
          break;
        }
      }
    }
    if (headers) Object.assign(response.headers, headers);
  };
}

/** The parameter object a parameter's schema pointer sits in (`…/parameters/3/schema` → `…/parameters/3`). */
function parameterAt(document: OpenApiDocument, schemaPointer: string | null): unknown {
  if (!schemaPointer?.endsWith("/schema")) return undefined;
  return getPointer(document, schemaPointer.slice(0, -"/schema".length));
}
