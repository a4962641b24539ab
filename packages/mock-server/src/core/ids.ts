const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A ULID-shaped 26-character identifier: 10 characters of time, 16 of randomness. */
export function ulid(timeMs: number, random: () => number = Math.random): string {
  return timePart(Math.max(0, Math.floor(timeMs))) + tail(random);
}

function tail(random: () => number): string {
  let text = "";
  for (let i = 0; i < 16; i++) text += CROCKFORD[Math.floor(random() * 32)];
  return text;
}

let lastTime = -1;
let lastTail: number[] = [];
/** The text of `lastTail`'s first 15 digits: an increment usually changes only the last one. */
let lastTailHead = "";

function digitsText(digits: number[], end: number): string {
  let text = "";
  for (let i = 0; i < end; i++) text += CROCKFORD[digits[i] as number];
  return text;
}

/**
 * A monotonic ULID (the spec's monotonic mode): within one millisecond — and when the clock was set back — the
 * time of the previous id is kept and its random part incremented, so ids made one after another sort in the
 * order they were made. Lists paged by `[createdAt, id]` keep their insertion order among equal times this way.
 */
function monotonicUlid(timeMs: number): string {
  const time = Math.max(0, Math.floor(timeMs));
  if (time > lastTime) {
    lastTime = time;
    lastTail = Array.from({ length: 16 }, () => Math.floor(Math.random() * 32));
    lastTailHead = digitsText(lastTail, 15);
  } else {
    let i = 15;
    while (i >= 0 && lastTail[i] === 31) lastTail[i--] = 0;
    if (i >= 0) lastTail[i] = (lastTail[i] as number) + 1;
    else lastTime++; // 32^16 ids in one millisecond: move to the next one.
    if (i < 15) lastTailHead = digitsText(lastTail, 15);
  }
  return timePart(lastTime) + lastTailHead + CROCKFORD[lastTail[15] as number];
}

let timeOf = -1;
let timeText = "";

/** The 10-character time part of a ULID; the last one is kept (ids made in the same millisecond share it). */
function timePart(timeMs: number): string {
  if (timeMs === timeOf) return timeText;
  let time = timeMs;
  let text = "";
  for (let i = 0; i < 10; i++) {
    text = CROCKFORD[time % 32] + text;
    time = Math.floor(time / 32);
  }
  timeOf = timeMs;
  timeText = text;
  return text;
}

/**
 * `prefix_` and a ULID: with `random` (seeded data, reproducible) exactly as drawn; without, monotonic.
 */
export function prefixedId(prefix: string, timeMs: number, random?: () => number): string {
  return `${prefix}_${random ? ulid(timeMs, random) : monotonicUlid(timeMs)}`;
}

/**
 * A request's log id (`X-Log-Id`, a problem's `logId`): `log_` and a monotonic ULID, so the ids of one server sort
 * in the order its requests came (and making one costs an increment, not sixteen random draws).
 */
export function logId(timeMs: number): string {
  return prefixedId("log", timeMs);
}

/**
 * mulberry32, a small, fast, seedable PRNG (fault injection, fuzzing, pictures and the BI history are
 * reproducible), with its state exposed: the state after k draws from seed s is s + k·0x6D2B79F5 (mod 2³²), so a
 * stored state resumes the stream exactly.
 */
export class Prng {
  constructor(public state: number) {
    this.state = state >>> 0;
  }
  readonly next = (): number => {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A mulberry32 stream from `seed`, as a function. */
export function mulberry32(seed: number): () => number {
  return new Prng(seed).next;
}

/** Random token characters for access and session tokens. */
export function randomToken(length: number, random: () => number = Math.random): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}
