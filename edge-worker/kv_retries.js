// Every KV call of a pipeline's Durable Object — checkpoints (KVStorage),
// connectors (KVSink) and the wipes of create, replace, clear and delete —
// goes through the package's retry wrapper (wasm-bindings/js/retrying.js),
// one call at a time.
//
// Why per call, and not only per sink write as the package does for any sink:
// a chunk that touches n keys makes 1–2 n KV calls, and a whole-chunk retry
// succeeds only when all of them do, which under a steady failure rate p
// happens with probability (1 - p)^(2n): a big chunk would never get through.
// A retried call is the same idempotent put, get, delete or list. The
// package's own retry of the whole write, and the connector's unbounded retry
// after it, stay behind this one for longer outages.

//
// Ten tries, not the package's five: a KV call is small and cheap to repeat,
// and with many calls in flight under a steady failure rate p, five tries
// leave p^4 of the failed calls given up (1 in 256 at p = 1/4, so most runs
// of a few hundred calls gave one up). Ten leave p^9; the backoff caps at
// 2 s, so a call gives up after about 6.5 s of an outage.
import { DEFAULT_RETRY, withRetries } from '../wasm-bindings/js/retrying.js';

export const KV_RETRY = Object.freeze({ ...DEFAULT_RETRY, attempts: 10 });

/** `kv` (the KV binding) with each call retried; failures go to `incidents` (an IncidentLog, shown in /stats as kv_incidents). */
export function retriedKV(kv, incidents) {
  return withRetries(kv, ['get', 'put', 'delete', 'list'], { label: 'KV', incidents, policy: KV_RETRY });
}
