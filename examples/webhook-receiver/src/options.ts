/** Environment of the receiver example. */

/** The local mock (`pnpm mock`) and its demo client. */
const MOCK = { baseUrl: "http://127.0.0.1:4010", clientId: "entrada-demo", clientSecret: "demo-secret" };

export interface ApiCredentials {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

/** `ENTRADA_BASE_URL`, `ENTRADA_CLIENT_ID`, `ENTRADA_CLIENT_SECRET`; the local mock's demo client by default. */
export function apiFromEnv(env: NodeJS.ProcessEnv = process.env): ApiCredentials {
  if (!env.ENTRADA_BASE_URL) return MOCK;
  const { ENTRADA_BASE_URL: baseUrl, ENTRADA_CLIENT_ID: clientId, ENTRADA_CLIENT_SECRET: clientSecret } = env;
  if (!clientId || !clientSecret) {
    throw new Error("Set ENTRADA_CLIENT_ID and ENTRADA_CLIENT_SECRET (client credentials with scope Shop).");
  }
  return { baseUrl, clientId, clientSecret };
}

/**
 * `ENTRADA_WEBHOOK_SECRET`: the subscription's secret; during a rotation the new and the old one, separated by
 * commas or spaces.
 */
export function secretsFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.ENTRADA_WEBHOOK_SECRET ?? "").split(/[\s,]+/).filter(Boolean);
}
