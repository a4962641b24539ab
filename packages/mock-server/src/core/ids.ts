const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

let lastTime = -1;
let lastHead = "";

/** A ULID-shaped 26-character identifier: 10 characters of time, 16 of randomness. */
export function ulid(timeMs: number, random: () => number = Math.random): string {
  let time = Math.max(0, Math.floor(timeMs));
  // Ids made in the same millisecond share the time part: computed once.
  if (time === lastTime) return lastHead + tail(random);
  lastTime = time;
  let head = "";
  for (let i = 0; i < 10; i++) {
    head = CROCKFORD[time % 32] + head;
    time = Math.floor(time / 32);
  }
  lastHead = head;
  return head + tail(random);
}

function tail(random: () => number): string {
  let text = "";
  for (let i = 0; i < 16; i++) text += CROCKFORD[Math.floor(random() * 32)];
  return text;
}

export function prefixedId(prefix: string, timeMs: number, random?: () => number): string {
  return `${prefix}_${ulid(timeMs, random)}`;
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
