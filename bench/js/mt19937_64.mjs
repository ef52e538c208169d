// std::mt19937_64 in JS, so this harness draws the very numbers that
// bench/orders_workload.h draws with `std::mt19937_64 random(42)`: the JS
// peers and the C++ benchmarks then run on identical data.
// BigInt is slow, but only the generator uses it, never a timed section.

const MASK = (1n << 64n) - 1n;
const N = 312;
const M = 156;
const MATRIX_A = 0xb5026f5aa96619e9n;
const UPPER = 0xffffffff80000000n;
const LOWER = 0x7fffffffn;

export class Mt19937_64 {
  /** @param {bigint|number} seed */
  constructor(seed = 5489n) {
    this.state = new Array(N);
    this.state[0] = BigInt(seed) & MASK;
    for (let i = 1; i < N; ++i) {
      const previous = this.state[i - 1];
      this.state[i] = (6364136223846793005n * (previous ^ (previous >> 62n)) + BigInt(i)) & MASK;
    }
    this.index = N;
  }

  #twist() {
    const mt = this.state;
    for (let i = 0; i < N; ++i) {
      const x = (mt[i] & UPPER) | (mt[(i + 1) % N] & LOWER);
      let xA = x >> 1n;
      if (x & 1n) xA ^= MATRIX_A;
      mt[i] = mt[(i + M) % N] ^ xA;
    }
    this.index = 0;
  }

  /** The next 64-bit output, as a BigInt in [0, 2^64). */
  next() {
    if (this.index >= N) this.#twist();
    let x = this.state[this.index++];
    x ^= (x >> 29n) & 0x5555555555555555n;
    x ^= (x << 17n) & 0x71d67fffeda60000n;
    x ^= (x << 37n) & 0xfff7eee000000000n;
    x ^= x >> 43n;
    return x;
  }

  /** `random() % bound` exactly as the C++ writes it (a modulo, not a fair range). */
  below(bound) {
    return Number(this.next() % BigInt(bound));
  }
}
