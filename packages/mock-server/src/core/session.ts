import { MockClock } from "./clock.ts";
import { type EmittedEvent, EventLog } from "./event-log.ts";
import type { FaultRule } from "./faults.ts";
import { IdempotencyStore } from "./idempotency-store.ts";
import { mulberry32, prefixedId, randomToken } from "./ids.ts";
import type { ClientConfig, TokenRecord } from "./oauth.ts";
import type { SectionModule } from "./section.ts";
import type { SeedData, World } from "./types.ts";

export type { EmittedEvent } from "./event-log.ts";

/**
 * Everything one `X-Mock-Session` sees: its own world (section data), clock, tokens, clients,
 * idempotency keys, faults and rate-limit counters. Sessions never share state.
 */
/** What one session may retain (each also has a lifetime). */
export interface SessionLimits {
  idempotencyTtlMs: number;
  maxIdempotencyKeys: number;
  /** Most access and session tokens kept; the oldest issued goes first beyond it (its bearer gets a 401). */
  maxTokens: number;
}

export class MockSession {
  world: World;
  seed: SeedData;
  readonly clock: MockClock;
  readonly tokens = new Map<string, TokenRecord>();
  readonly maxTokens: number;
  readonly clients: Map<string, ClientConfig>;
  readonly idempotency: IdempotencyStore;
  faults: FaultRule[] = [];
  readonly rate = new Map<string, { windowStart: number; count: number }>();
  /** The webhook events it emitted, newest 1000 (`GET /__mock/events`). */
  readonly events = new EventLog();
  random: () => number;
  lastUsed = 0;
  /** Records this session retains, as the engine last counted them (see `maxRetainedRecords`). */
  weight = 0;
  faultCounter = 0;

  readonly id: string;
  private readonly sections: SectionModule[];

  constructor(
    id: string,
    sections: SectionModule[],
    seed: SeedData,
    clients: ClientConfig[],
    limits: SessionLimits,
    now: () => number,
    randomSeed: number,
  ) {
    this.id = id;
    this.sections = sections;
    this.clock = new MockClock(now);
    this.seed = seed;
    this.clients = new Map(
      clients.map((c) => [c.clientId, { ...c, secrets: [...c.secrets], scopes: [...c.scopes] }]),
    );
    this.idempotency = new IdempotencyStore(limits.idempotencyTtlMs, limits.maxIdempotencyKeys);
    this.maxTokens = limits.maxTokens;
    this.random = mulberry32(randomSeed);
    this.world = this.buildWorld(seed);
  }

  buildWorld(seed: SeedData): World {
    const world: World = {};
    for (const section of this.sections) world[section.name] = section.initialState(seed, this.clock);
    return world;
  }

  /**
   * Back to the start: fresh data from the seed (the current one, or a new one), real time, no faults, fresh
   * rate-limit windows; idempotency keys and the event log go with the old data. Tokens and clients stay, so a
   * client's cached token keeps working across resets.
   */
  reset(seed?: SeedData): void {
    if (seed) this.seed = seed;
    this.clock.reset();
    this.world = this.buildWorld(this.seed);
    this.idempotency.clear();
    this.events.clear();
    this.faults = [];
    this.rate.clear();
  }

  /** Stores a token, dropping the oldest issued beyond `maxTokens` (the map is in issue order). */
  addToken(token: string, record: TokenRecord): void {
    this.tokens.set(token, record);
    while (this.tokens.size > this.maxTokens) {
      const oldest = this.tokens.keys().next().value;
      if (oldest === undefined) break;
      this.tokens.delete(oldest);
    }
  }

  /** A handler context's `id`: a new opaque id with this prefix, on this session's clock. */
  readonly newId = (prefix: string): string => prefixedId(prefix, this.clock.now());

  /**
   * A handler context's `issueSessionToken` for a caller (`clientId`): a short-lived bearer session token for the
   * embedded shop, kept in this session's token store.
   */
  sessionTokenIssuer(clientId: string) {
    return ({
      sessionId,
      ttlSeconds,
      allowedOrigins,
    }: {
      sessionId: string;
      ttlSeconds: number;
      allowedOrigins: string[];
    }): { token: string; expiresAt: number } => {
      const token = `${sessionId}.${randomToken(32)}`;
      const expiresAt = this.clock.now() + ttlSeconds * 1000;
      this.addToken(token, {
        kind: "session",
        clientId,
        scopes: ["Shop"],
        sessionId,
        expiresAt,
        allowedOrigins,
      });
      return { token, expiresAt };
    };
  }

  recordEvent(event: EmittedEvent): void {
    this.events.record(event);
  }
}
