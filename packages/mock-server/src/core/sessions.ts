/**
 * The engine's mock sessions (`X-Mock-Session`): each created from the seed on first use, the least recently used
 * dropped past `maxSessions`, and re-weighed after a request so that what all of them retain stays under
 * `maxRetainedRecords`. The routing stage takes sessions from here; the engine's session API reads them here.
 */
import type { ClientConfig } from "./oauth.ts";
import type { SectionModule } from "./section.ts";
import { MockSession, type SessionLimits } from "./session.ts";
import type { SeedData } from "./types.ts";

export interface SessionsOptions {
  sections: SectionModule[];
  seed: SeedData;
  clients: ClientConfig[];
  limits: SessionLimits;
  now: () => number;
  randomSeed: number;
  maxSessions: number;
  maxRetainedRecords: number;
}

export class Sessions {
  private readonly byId = new Map<string, MockSession>();
  private readonly options: SessionsOptions;
  private retained = 0;

  constructor(options: SessionsOptions) {
    this.options = options;
  }

  /** The session with this id, created from the seed on first use. */
  get(id = "default"): MockSession {
    let session = this.byId.get(id);
    if (!session) {
      const options = this.options;
      if (this.byId.size >= options.maxSessions) {
        let oldest: MockSession | null = null;
        for (const s of this.byId.values())
          if (s.id !== "default" && (!oldest || s.lastUsed < oldest.lastUsed)) oldest = s;
        if (oldest) this.drop(oldest.id);
      }
      session = new MockSession(
        id,
        options.sections,
        options.seed,
        options.clients,
        options.limits,
        options.now,
        options.randomSeed,
      );
      this.byId.set(id, session);
    }
    return session;
  }

  list(): MockSession[] {
    return [...this.byId.values()];
  }

  drop(id: string): boolean {
    const session = this.byId.get(id);
    if (session) this.retained -= session.weight;
    return this.byId.delete(id);
  }

  /** Resets one session (or all) to its seed. */
  reset(sessionId?: string, seed?: SeedData): void {
    if (sessionId === undefined) {
      for (const s of this.byId.values()) s.reset(seed);
      return;
    }
    this.get(sessionId).reset(seed);
  }

  /** Records all sessions keep (see `maxRetainedRecords`). */
  get retainedRecords(): number {
    return this.retained;
  }

  /**
   * Re-weighs a session after a request and, past `maxRetainedRecords`, drops the least recently used other
   * sessions ("default" stays; it is bounded by the per-session caps).
   */
  account(session: MockSession): void {
    let weight = session.idempotency.size + session.tokens.size;
    for (const section of this.options.sections) {
      if (section.retained) weight += section.retained(session.world[section.name]);
    }
    this.retained += weight - session.weight;
    session.weight = weight;
    while (this.retained > this.options.maxRetainedRecords) {
      let oldest: MockSession | null = null;
      for (const s of this.byId.values())
        if (s !== session && s.id !== "default" && (!oldest || s.lastUsed < oldest.lastUsed)) oldest = s;
      if (!oldest) break;
      this.drop(oldest.id);
    }
  }
}
