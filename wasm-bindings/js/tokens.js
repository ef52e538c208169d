// Completion tokens that stay meaningful across restarts.
//
// The engine numbers tokens 0, 1, 2, ... and a restored engine carries on
// from the checkpoint's count. A pipeline that crashed after the checkpoint
// may have handed out numbers that the resumed one hands out again, for other
// input. So a token also names its incarnation (a random id per Pipeline
// object): "<incarnation>-<n>". Checkpoints keep, per incarnation, how many
// of its tokens they cover; after a resume an older incarnation's token is
// answered when the checkpoint covered it, and is UNKNOWN_TOKEN otherwise
// (its input never reached a checkpoint: send it again).

import { FreshetError } from './errors.js';

const MAX_REMEMBERED = 32;  // incarnations kept in checkpoints (oldest dropped)

// '000' to '999': a token's number is written from these, not with String(n)
// or a template. V8 keeps the string of every number it converts in a cache
// in its old generation, so each ingest's new number left a young string
// there, and every young-generation collection copied and visited all of
// them (~16k): 2.5-4.5 ms a collection in the orders workload against
// ~0.5-0.8 ms without, the slowest changes of a long run.
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/** The decimal digits of a whole number 0 <= n < 2^53 (a token's are under 10^15: number()). */
function decimal(n) {
  let lower = '';
  for (; n >= 1000; n = Math.floor(n / 1000)) lower = THREE_DIGITS[n % 1000] + lower;
  const leading = THREE_DIGITS[n];
  return (n >= 100 ? leading : leading.slice(n >= 10 ? 1 : 2)) + lower;
}

function randomId() {
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export class TokenBook {
  #incarnation = randomId();
  #issued = 0;                // tokens this incarnation issued, up to the next number
  #covered = new Map();       // earlier incarnation → tokens below this number are in the state

  /** A token for engine token number `n`. */
  issue(n) {
    this.#issued = n + 1;
    return `${this.#incarnation}-${decimal(n)}`;
  }

  /** This Pipeline object's id, the first part of its tokens. */
  get incarnation() {
    return this.#incarnation;
  }

  /** Tokens of `incarnation` below engine number `below` are in the state (replayed from the input log). */
  cover(incarnation, below) {
    if (incarnation === this.#incarnation) return;
    this.#covered.set(incarnation, Math.max(this.#covered.get(incarnation) ?? 0, below));
  }

  /** The engine token number of `token`, or UNKNOWN_TOKEN. */
  number(token) {
    const match = /^([0-9a-f]{12})-(\d{1,15})$/.exec(String(token));
    if (!match) throw new FreshetError('UNKNOWN_TOKEN', `unknown completion token '${token}'`);
    const n = Number(match[2]);
    if (match[1] === this.#incarnation) return n;
    const covered = this.#covered.get(match[1]);
    if (covered === undefined) throw new FreshetError('UNKNOWN_TOKEN', `unknown completion token '${token}'`);
    if (n >= covered) {
      throw new FreshetError('UNKNOWN_TOKEN', `completion token '${token}' was issued after the checkpoint this ` +
                                              'pipeline resumed from: its input was lost, ingest it again');
    }
    return n;
  }

  /** What a checkpoint keeps (JSON text for the engine's host state). */
  save() {
    const covered = [...this.#covered, [this.#incarnation, this.#issued]].slice(-MAX_REMEMBERED);
    return JSON.stringify({ tokens: covered });
  }

  /** Takes over what a checkpoint kept (text from save()). */
  restore(text) {
    if (!text) return;
    let saved;
    try {
      saved = JSON.parse(text);
    } catch {
      return;  // written by a host that keeps something else there
    }
    for (const [incarnation, covered] of saved?.tokens ?? []) this.#covered.set(incarnation, covered);
  }
}
