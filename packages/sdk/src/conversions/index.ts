/**
 * `@entrada/sdk/conversions`: webhook events → analytics and advertising conversions (GA4 Measurement Protocol,
 * Meta Conversions API). Pure functions: they build request bodies and send nothing. Runs anywhere (Web Crypto).
 */
export type { DiscountedUnit, PricedLine } from "./discount.ts";
export { spreadDiscount } from "./discount.ts";
export type { Ga4Event, Ga4Item, Ga4Kind, Ga4MeasurementPayload, Ga4Options } from "./ga4.ts";
export { ga4FromWebhook } from "./ga4.ts";
export { GA4_LIMITS, validateGa4Payload } from "./ga4-rules.ts";
export { isSha256Hex, normalizeEmail, normalizeName, normalizePhone, sha256Hex } from "./hash.ts";
export type {
  MetaActionSource,
  MetaConversionsPayload,
  MetaOptions,
  MetaServerEvent,
  MetaUserData,
} from "./meta.ts";
export { metaFromWebhook } from "./meta.ts";
export { META_LIMITS, validateMetaPayload } from "./meta-rules.ts";
export type { ConversionBuilt, ConversionResult, ConversionSkipCode, ConversionSkipped } from "./result.ts";
