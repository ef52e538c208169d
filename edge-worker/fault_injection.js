// Fault injection, for tests only: a wrapper around a storage, a sink or a KV
// namespace whose calls fail every n-th time or are slow, so that tests show
// that retries lose and double nothing and that stats say what happened.
// tests/js use it directly; the edge worker wraps its KV namespace in it when
// the FRESHET_FAULTS binding is set, which only local.mjs sets, and only when
// a test asks (startEdgeWorker({ faults })). Never set it in wrangler.toml.
//
// Faults alternate between the two ways a real call fails:
//   1st, 3rd, ... fault: before the call (nothing happened)
//   2nd, 4th, ... fault: after the call (it happened; its answer was lost)
// The second kind is the one that would double a row if a retry were not idempotent.

/**
 * @typedef {{ failEvery?: number, slowMs?: number }} FaultSpec
 *   failEvery: the n-th, 2n-th, ... call fails (0: none); slowMs: every call waits this long first
 */

/**
 * `target` with `methods` failing as `spec` says; `faults` counts what was injected.
 * @param {object} target
 * @param {string[]} methods
 * @param {FaultSpec} spec
 * @returns {object} a proxy of `target`, with `.injected` → { calls, failedBefore, failedAfter }
 */
export function injectFaults(target, methods, { failEvery = 0, slowMs = 0 } = {}) {
  const injected = { calls: 0, failedBefore: 0, failedAfter: 0 };
  const wrapped = new Map();
  for (const method of methods) {
    wrapped.set(method, async (...args) => {
      const call = ++injected.calls;
      if (slowMs) await new Promise((resolve) => setTimeout(resolve, slowMs));
      const fails = failEvery > 0 && call % failEvery === 0;
      const before = fails && (injected.failedBefore + injected.failedAfter) % 2 === 0;
      if (before) {
        ++injected.failedBefore;
        throw new Error(`injected fault: ${method} call ${call} failed before it ran`);
      }
      const result = await target[method](...args);
      if (fails) {
        ++injected.failedAfter;
        throw new Error(`injected fault: ${method} call ${call} ran, and its answer was lost`);
      }
      return result;
    });
  }
  return new Proxy(target, {
    get(object, property) {
      if (property === 'injected') return injected;
      if (wrapped.has(property)) return wrapped.get(property);
      const value = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

/** Parses FRESHET_FAULTS: "fail_every=7,slow_ms=5" (either may be absent). */
export function parseFaultSpec(text) {
  const spec = {};
  for (const part of String(text).split(',').map((item) => item.trim()).filter(Boolean)) {
    const [key, value] = part.split('=');
    const number = Number(value);
    if (!Number.isInteger(number) || number < 0) throw new Error(`FRESHET_FAULTS: '${part}' needs a whole number`);
    if (key === 'fail_every') spec.failEvery = number;
    else if (key === 'slow_ms') spec.slowMs = number;
    else throw new Error(`FRESHET_FAULTS: unknown '${key}' (fail_every, slow_ms)`);
  }
  return spec;
}

/** The worker's env, with KV failing as FRESHET_FAULTS says (env itself when it is not set). */
export function withInjectedFaults(env) {
  if (!env.FRESHET_FAULTS) return env;
  const KV = injectFaults(env.KV, ['get', 'put', 'delete', 'list'], parseFaultSpec(env.FRESHET_FAULTS));
  return { ...env, KV };
}
