// withRetries(target, methods, options): the one place where storage and
// sink calls are retried. Pipeline.create wraps its storage (put, get, list,
// delete: MemoryStorage, FileStorage, IndexedDBStorage, KVStorage, a Durable
// Object storage adapter, or any object with those methods) and every
// output's sink (write, reset: KVSink, IndexedDBSink, MapSink, ...) in it.
//
// ## Design
// A call that throws or rejects is tried again after an exponential backoff
// with jitter (so that many pipelines hit by one outage do not retry in step):
//   attempt n waits  cap/2 + random·cap/2,  cap = min(maxDelayMs, firstDelayMs·2^(n-1))
// up to `attempts` tries in all; then the last error is thrown to the caller
// (a checkpoint fails and the previous one stays in use; a connector keeps
// the chunk queued and its own slower retry takes over). Every failure is
// told to an IncidentLog, which reports one incident per outage.
// Retrying is safe because every call wrapped is idempotent: storages put
// whole blobs under fixed names, and sinks apply a chunk again without
// doubling it (the sinks' contract, docs/js-api.md). A call that answers
// synchronously stays synchronous (a MapSink's write is not made async).

import { FreshetError, invalidArgument } from './errors.js';

export const DEFAULT_RETRY = Object.freeze({ attempts: 5, firstDelayMs: 20, maxDelayMs: 2000 });

/** The retry policy of Pipeline.create's `storageRetry` option, checked; defaults filled in. */
export function retryPolicy(options = {}) {
  if (typeof options !== 'object' || options === null) throw invalidArgument('storageRetry is an object { attempts, firstDelayMs, maxDelayMs }');
  const policy = { ...DEFAULT_RETRY, ...options };
  for (const [key, value] of Object.entries(policy)) {
    if (!(key in DEFAULT_RETRY)) throw invalidArgument(`storageRetry: unsupported option '${key}' (attempts, firstDelayMs, maxDelayMs)`);
    const least = key === 'attempts' ? 1 : 0;
    if (!Number.isInteger(value) || value < least) throw invalidArgument(`storageRetry.${key} is an integer ≥ ${least}, not ${value}`);
  }
  return policy;
}

/** How long attempt `n` (from 1) waits before the next one. */
export function backoffMs(n, policy, random = Math.random) {
  const cap = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (n - 1));
  return cap / 2 + random() * (cap / 2);
}

// Errors that another try cannot fix are not retried: the caller's mistakes
// (INVALID_ARGUMENT, ...), and a storage's refusal of a blob name or size,
// whose cause is the problem's text (storages/blob_names.js) rather than the
// error of the call that failed.
function retryable(error) {
  if (!(error instanceof FreshetError)) return true;
  return error.code === 'STORAGE_ERROR' && typeof error.cause !== 'string';
}

/**
 * `target` with `methods` retried; everything else (describe(), prefix, ...) as it is.
 * @param {object} target
 * @param {string[]} methods the methods to retry (those `target` has)
 * @param {{ label: string, incidents: import('./incidents.js').IncidentLog, policy?: object }} options
 */
export function withRetries(target, methods, { label, incidents, policy = DEFAULT_RETRY }) {
  const wrapped = new Map();
  for (const method of methods) {
    if (typeof target[method] !== 'function') continue;
    const call = (args) => target[method](...args);
    const again = async (error, args) => {
      for (let attempt = 1; ; ++attempt) {
        if (!retryable(error)) {
          incidents.settled(label, method, 'failed');
          throw error;
        }
        incidents.failed(label, method, error);
        if (attempt >= policy.attempts) {
          incidents.settled(label, method, 'failed');
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt, policy)));
        try {
          const result = await call(args);
          incidents.settled(label, method);
          return result;
        } catch (next) {
          error = next;
        }
      }
    };
    wrapped.set(method, (...args) => {
      let result;
      try {
        result = call(args);
      } catch (error) {
        return again(error, args);
      }
      if (typeof result?.then !== 'function') return result;
      return Promise.resolve(result).catch((error) => again(error, args));
    });
  }
  // Other properties are read from the target itself (its private fields and getters need it as `this`).
  return new Proxy(target, {
    get(object, property) {
      if (wrapped.has(property)) return wrapped.get(property);
      const value = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

/** A short name for a storage or sink in incidents: its describe().type and prefix, else its class. */
export function labelOf(target, fallback) {
  let description;
  try {
    description = typeof target.describe === 'function' ? target.describe() : null;
  } catch {
    description = null;
  }
  const type = description?.type ?? target.constructor?.name ?? fallback;
  const where = description?.prefix ?? description?.directory ?? description?.database;
  return where === undefined ? type : `${type}(${JSON.stringify(where)})`;
}
