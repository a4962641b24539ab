/** Developer controls (`/__mock`): the OAuth clients of this session: list, add or replace, rotate a secret, revoke tokens. */
import { randomToken } from "../ids.ts";
import type { ClientConfig } from "../oauth.ts";
import { ProblemError } from "../problems.ts";
import { bad, type Control, isObject, json } from "./control.ts";

export const CLIENTS_CONTROLS: Control[] = [
  {
    method: "GET",
    path: "/clients",
    description: "OAuth clients of this session (secrets included: it is a mock).",
    run: ({ session, logId }) => json(200, { items: [...session.clients.values()] }, logId),
  },
  {
    method: "PUT",
    path: "/clients/{clientId}",
    description: "Create or replace a client: {secrets: [..1–2], scopes: [Shop|TERP]}.",
    run: ({ session, params, body, logId }) => {
      if (!isObject(body)) bad("The body is {secrets, scopes}.");
      const b = body as Record<string, unknown>;
      const secrets = b.secrets;
      const scopes = b.scopes;
      if (
        !Array.isArray(secrets) ||
        secrets.length < 1 ||
        secrets.length > 2 ||
        !secrets.every((s) => typeof s === "string" && s.length >= 8)
      ) {
        bad("secrets is an array of one or two strings of at least 8 characters.", "/body/secrets");
      }
      if (!Array.isArray(scopes) || !scopes.every((s) => s === "Shop" || s === "TERP")) {
        bad("scopes is an array of Shop and/or TERP.", "/body/scopes");
      }
      const client: ClientConfig = {
        clientId: params.clientId ?? "",
        secrets: secrets as string[],
        scopes: scopes as string[],
      };
      session.clients.set(client.clientId, client);
      return json(200, client, logId);
    },
  },
  {
    method: "POST",
    path: "/clients/{clientId}/rotate",
    description:
      "Rotate a client's secret: a new secret is added, the previous one stays valid until the next rotation.",
    run: ({ session, params, logId }) => {
      const client = session.clients.get(params.clientId ?? "");
      if (!client) throw new ProblemError("not-found", `No client ${params.clientId}.`);
      const secret = `sec_${randomToken(32, session.random)}`;
      client.secrets = [client.secrets[client.secrets.length - 1] ?? "", secret].filter((s) => s !== "");
      return json(200, { clientId: client.clientId, secret, validSecrets: client.secrets.length }, logId);
    },
  },
  {
    method: "POST",
    path: "/tokens/revoke",
    description:
      "Invalidate every access and session token of this session, or only the one given as {token} (its bearer gets a 401; other visitors go on).",
    run: ({ session, body, logId }) => {
      if (body !== null && body !== undefined) {
        if (!isObject(body) || typeof (body as { token?: unknown }).token !== "string")
          bad('The body is empty (every token) or {"token": "<access or session token>"}.', "/body/token");
        const revoked = session.tokens.delete((body as { token: string }).token) ? 1 : 0;
        return json(200, { revoked }, logId);
      }
      const count = session.tokens.size;
      session.tokens.clear();
      return json(200, { revoked: count }, logId);
    },
  },
];
