// IncidentLog: what p.stats().incidents shows about storage and sink faults.
//
// An incident is a run of consecutive failures of one operation on one target
// (e.g. "KVStorage(prefix 'p/') put"): it opens at the first failure and
// closes at the next success of that operation, or when the retries give up.
// Retries inside an incident only update it (count, last error, duration),
// so a flaky KV shows as one line per outage, not one error per retry.
//
//   call:    put ok  put ✗  put ✗  put ok   get ✗  get ok
//   log:            [open  2 fails closed]  [open 1 closed]

/** Closed incidents kept (the newest); older ones only count in the totals. */
const KEPT_INCIDENTS = 20;

export class IncidentLog {
  #open = new Map();   // "target operation" → incident
  #closed = [];
  #totals = { incidents: 0, failures: 0, givenUp: 0 };

  /** Records one failure of `operation` on `target`. */
  failed(target, operation, error) {
    const key = `${target}\u0000${operation}`;
    const now = Date.now();
    const message = error instanceof Error ? error.message : String(error);
    let incident = this.#open.get(key);
    if (!incident) {
      incident = { target, operation, failures: 0, firstError: message, lastError: message,
                   startedAt: new Date(now).toISOString(), durationMs: 0, outcome: 'retrying', started: now };
      this.#open.set(key, incident);
      ++this.#totals.incidents;
    }
    ++incident.failures;
    ++this.#totals.failures;
    incident.lastError = message;
    incident.durationMs = now - incident.started;
  }

  /** The operation succeeded (closing its incident, if one is open) or was given up (`outcome` 'failed'). */
  settled(target, operation, outcome = 'recovered') {
    const key = `${target}\u0000${operation}`;
    const incident = this.#open.get(key);
    if (!incident) return;
    this.#open.delete(key);
    incident.outcome = outcome;
    incident.durationMs = Date.now() - incident.started;
    if (outcome === 'failed') ++this.#totals.givenUp;
    this.#closed.push(incident);
    if (this.#closed.length > KEPT_INCIDENTS) this.#closed.shift();
  }

  /** @returns {{ incidents: number, failures: number, givenUp: number, recent: object[] }} open incidents last */
  snapshot() {
    const strip = ({ started, ...shown }) => ({ ...shown });
    return { ...this.#totals, recent: [...this.#closed, ...this.#open.values()].map(strip) };
  }
}
