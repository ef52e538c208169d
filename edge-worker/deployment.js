// A pipeline's deployment record: Feldera's lifecycle state that is not the
// running Pipeline itself, kept in Durable Object storage under 'deployment'
// so that a restarted object knows whether to run its pipeline at all.
//
//   {
//     stopped: false,                 true: no Pipeline runs; storage (KV checkpoints) is kept
//     initial: 'running' | 'paused',  what /start asked for (Feldera's deployment_initial)
//     error: null | {message, error_code, details},   Feldera's deployment_error
//     storage_status: 'Cleared' | 'InUse',
//     id: uuid | null,                a new one at each start (Feldera's deployment_id)
//     since: { status, desired, storage }   ISO times of the last change of each
//   }
//
// Feldera's state diagram, as Freshet runs it (each transition completes
// before the request that asked for it answers, so the transient states
// Provisioning, Initializing and Stopping are never observed):
//
//   Stopped ──/start?initial=running──▶ Running ◀──/resume── Paused
//      ▲    ──/start?initial=paused───▶ Paused  ──/pause──▶ (from Running)
//      └──────── /stop (force=false: checkpoint first) ──── Running, Paused
//   Storage: Cleared ──/start──▶ InUse ──/clear (only while Stopped)──▶ Cleared
//
// A record that was never written (a pipeline created before this record
// existed, or by Freshet's short PUT body) is a started, running pipeline.

const KEY = 'deployment';

export class Deployment {
  #storage;
  /** @type {{ stopped: boolean, initial: string, error: object|null, storage_status: string, id: string|null, since: object }} */
  record;

  constructor(storage, record) {
    this.#storage = storage;
    this.record = record;
  }

  /** The record in `storage`, or the one of a started pipeline. */
  static async load(storage) {
    const now = new Date().toISOString();
    const record = (await storage.get(KEY)) ?? {
      stopped: false, initial: 'running', error: null, storage_status: 'InUse', id: crypto.randomUUID(),
      since: { status: now, desired: now, storage: now },
    };
    return new Deployment(storage, record);
  }

  /** A new pipeline's record: stopped with cleared storage (Feldera's), or started (Freshet's short PUT). */
  static fresh(storage, { stopped }) {
    const now = new Date().toISOString();
    return new Deployment(storage, {
      stopped, initial: 'running', error: null, storage_status: stopped ? 'Cleared' : 'InUse',
      id: stopped ? null : crypto.randomUUID(), since: { status: now, desired: now, storage: now },
    });
  }

  get stopped() {
    return this.record.stopped;
  }

  /** Merges `changes`, stamps the times of what changed, and writes the record. */
  async update(changes) {
    const now = new Date().toISOString();
    const before = this.record;
    const record = { ...before, ...changes, since: { ...before.since } };
    if (record.stopped !== before.stopped || record.initial !== before.initial) {
      record.since.status = now;
      record.since.desired = now;
    }
    if (record.storage_status !== before.storage_status) record.since.storage = now;
    this.record = record;
    await this.save();
  }

  async save() {
    await this.#storage.put(KEY, this.record);
  }

  async delete() {
    await this.#storage.delete(KEY);
  }
}
