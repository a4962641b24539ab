/**
 * The SDK's error model, which `error` / `onError` report (both entries re-export it): switch on `kind`, and on
 * `slug` for a problem.
 */
export {
  type EntradaError,
  type EntradaErrorKind,
  isEntradaError,
  isErrorKind,
  isProblem,
  type ProblemSlug,
} from "@entrada/sdk/shop";
