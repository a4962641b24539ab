import type { components } from "@entrada/openapi/schema";
import { msg } from "../../core/messages.ts";
import { type ContextOf, defineSection, type ResultOf } from "../../core/section.ts";
import type { World } from "../../core/types.ts";
import { detail } from "../shared/details.ts";
import { paginate, queryParam } from "../shared/paging.ts";

export interface BadgeRecord {
  id: string;
  name: string;
  company: string | null;
  jobTitle: string | null;
  email: string | null;
}

export interface ConnectionRecord {
  id: string;
  /** The badge whose list holds this contact (the scanner). */
  badgeId: string;
  /** The badge that was scanned. */
  contactBadgeId: string;
  note: string | null;
  createdAt: string;
}

export interface ConnectionsState {
  badges: Record<string, BadgeRecord>;
  connections: Record<string, ConnectionRecord>;
  /** Connection ids in creation order. */
  order: string[];
}

export const CONNECTIONS = "connections";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** Four-character checksum of a badge id, so QR payloads cannot be guessed from ids alone. */
function checksum(badgeId: string): string {
  let h = 0x811c9dc5;
  const text = `entrada-badge:${badgeId}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  let out = "";
  for (let i = 0; i < 4; i++) {
    out += ALPHABET[(h >>> (i * 5)) & 31];
  }
  return out;
}

/**
 * The QR payload printed on a badge: `B1.<badgeId>.<checksum>`.
 * @example badgeQr("bdg_anna") // "B1.bdg_anna.XXXX"
 */
export function badgeQr(badgeId: string): string {
  return `B1.${badgeId}.${checksum(badgeId)}`;
}

/** The badge id inside a well-formed payload with a correct checksum, else null. */
export function decodeBadgeQr(payload: string): string | null {
  const m = /^B1\.(bdg_[0-9A-Za-z]+)\.([0-9A-Z]{4})$/.exec(payload.trim());
  if (!m) return null;
  return checksum(m[1] as string) === m[2] ? (m[1] as string) : null;
}

/** Default attendees. Their badge QR payloads are `badgeQr(id)` (the CLI prints them). */
export const DEFAULT_BADGES: BadgeRecord[] = [
  {
    id: "bdg_anna",
    name: "Anna Muster",
    company: "Muster AG",
    jobTitle: "Event Manager",
    email: "anna.muster@example.ch",
  },
  {
    id: "bdg_claire",
    name: "Claire Dubois",
    company: "Festival Lumière SA",
    jobTitle: "Head of Partnerships",
    email: "claire.dubois@lumiere.example",
  },
  {
    id: "bdg_luca",
    name: "Luca Rossi",
    company: "Ticino Eventi SA",
    jobTitle: "CTO",
    email: "luca.rossi@ticinoeventi.example",
  },
  {
    id: "bdg_james",
    name: "James Carter",
    company: null,
    jobTitle: "Freelance Producer",
    email: "james@carter.example",
  },
  {
    id: "bdg_mia",
    name: "Mia Keller",
    company: "Keller Catering GmbH",
    jobTitle: null,
    email: "mia@kellercatering.example",
  },
  { id: "bdg_noah", name: "Noah Meier", company: "Entrada", jobTitle: "Developer Advocate", email: null },
];

function slice(world: World): ConnectionsState {
  return world[CONNECTIONS] as ConnectionsState;
}

function find(
  state: ConnectionsState,
  badgeId: string,
  contactBadgeId: string,
): ConnectionRecord | undefined {
  for (const id of state.order) {
    const c = state.connections[id] as ConnectionRecord;
    if (c.badgeId === badgeId && c.contactBadgeId === contactBadgeId) return c;
  }
  return undefined;
}

/** A contact as its owner sees it: the e-mail address is shared only once both sides scanned each other. */
function connectionJson(state: ConnectionsState, c: ConnectionRecord): components["schemas"]["Connection"] {
  const reverse = find(state, c.contactBadgeId, c.badgeId);
  const other = state.badges[c.contactBadgeId] as BadgeRecord;
  const mutual = reverse !== undefined;
  return {
    id: c.id,
    badgeId: c.badgeId,
    contact: {
      badgeId: other.id,
      name: other.name,
      company: other.company,
      jobTitle: other.jobTitle,
      email: mutual ? other.email : null,
    },
    mode: mutual ? "mutual" : "one-directional",
    note: c.note,
    createdAt: c.createdAt,
    // RFC 3339 UTC strings sort chronologically: the later of the two directions.
    mutualSince: mutual ? ([reverse.createdAt, c.createdAt].sort()[1] ?? c.createdAt) : null,
  };
}

function createConnectionScan(ctx: ContextOf<"createConnectionScan">): ResultOf<"createConnectionScan"> {
  const state = slice(ctx.world);
  const body = ctx.body;
  if (!state.badges[body.scannerBadgeId])
    ctx.problem("not-found", detail(ctx, "noBadge", { id: body.scannerBadgeId }));
  const scanned = decodeBadgeQr(body.scannedBadgeQr);
  const invalid = (text: string) =>
    ctx.problem("unprocessable", text, { errors: [{ pointer: "/body/scannedBadgeQr", detail: text }] });
  if (scanned === null || !state.badges[scanned]) {
    invalid(ctx.text(msg("connections.the-qr-code-is-not-a")));
  }
  if (scanned === body.scannerBadgeId) {
    invalid(ctx.text(msg("connections.a-badge-cannot-scan-itself")));
  }
  const contactBadgeId = scanned as string;
  const existing = find(state, body.scannerBadgeId, contactBadgeId);
  if (existing) {
    if (body.note !== undefined) existing.note = body.note;
    return { status: 200, body: connectionJson(state, existing) };
  }
  const record: ConnectionRecord = {
    id: ctx.id("con"),
    badgeId: body.scannerBadgeId,
    contactBadgeId,
    note: body.note ?? null,
    createdAt: new Date(ctx.clock.now()).toISOString(),
  };
  state.connections[record.id] = record;
  state.order.push(record.id);
  return { status: 201, body: connectionJson(state, record) };
}

function listBadgeContacts(ctx: ContextOf<"listBadgeContacts">): ResultOf<"listBadgeContacts"> {
  const state = slice(ctx.world);
  const badgeId = ctx.params.badgeId as string;
  if (!state.badges[badgeId]) ctx.problem("not-found", detail(ctx, "noBadge", { id: badgeId }));
  const mode = queryParam(ctx, "mode");
  const items = state.order
    .map((id) => state.connections[id] as ConnectionRecord)
    .filter((c) => c.badgeId === badgeId)
    .map((c) => connectionJson(state, c))
    .filter((c) => mode === undefined || c.mode === mode)
    .reverse();
  const page = paginate(ctx, items, { position: (c) => [c.createdAt, c.id], descending: true });
  return { status: 200, body: page };
}

function deleteBadgeContact(ctx: ContextOf<"deleteBadgeContact">): ResultOf<"deleteBadgeContact"> {
  const state = slice(ctx.world);
  const badgeId = ctx.params.badgeId as string;
  const contactId = ctx.params.contactId as string;
  if (!state.badges[badgeId]) ctx.problem("not-found", detail(ctx, "noBadge", { id: badgeId }));
  const record = state.connections[contactId];
  if (!record || record.badgeId !== badgeId)
    ctx.problem("not-found", detail(ctx, "noContact", { badge: badgeId, id: contactId }));
  delete state.connections[contactId];
  state.order = state.order.filter((id) => id !== contactId);
  return { status: 204 };
}

/** Badge-scan connections: one-directional contacts that become mutual when both attendees scan each other. */
const connections = defineSection<ConnectionsState>({
  name: CONNECTIONS,
  initialState(seed) {
    const own = seed[CONNECTIONS] as { badges?: BadgeRecord[] } | undefined;
    const badges = structuredClone(own?.badges ?? DEFAULT_BADGES);
    return { badges: Object.fromEntries(badges.map((b) => [b.id, b])), connections: {}, order: [] };
  },
  handlers: { createConnectionScan, listBadgeContacts, deleteBadgeContact },
});

export default connections;
