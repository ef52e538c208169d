// Where a pipeline's durable state lives: its input log (every acknowledged
// ingest since the last checkpoint, the package's `durability: 'log'`) and
// its checkpoints.
//
//   input log     Durable Object storage, always: an ingest is acknowledged
//                 once its put there resolved, and that storage is
//                 transactional, strongly consistent and local to the object.
//   checkpoints   Durable Object storage by default (FRESHET_CHECKPOINT_STORE
//                 'durable_object'), or Workers KV ('kv').
//
// Why checkpoints default to the object's storage (measured in bench/edge,
// edge-worker/README.md "Figures"): KV is eventually consistent across
// locations, so an object restarted elsewhere could read an older
// checkpoint than the one the log was truncated to — a state older than the
// one acknowledged (the package then refuses to replay: CHECKPOINT_CORRUPT,
// the record missing, rather than lose input silently). In the object's own
// storage the checkpoint and the log are always each other's latest. Blobs
// there are split into parts of 1 MiB (a SQLite-backed object takes 2 MB a
// value). A pipeline that checkpointed to KV before keeps its state: its KV
// checkpoints are copied into the object's storage the first time it opens.

import { DurableObjectStorage, KVStorage } from '../wasm-bindings/js/workerd.js';
import { LOG_PREFIX } from '../wasm-bindings/js/input_log.js';
import { checkpointPrefix } from './definition.js';

const OBJECT_PREFIX = 'pipeline/';
const PART_BYTES = 1024 * 1024;
const CHECKPOINT_PREFIX = 'checkpoint-';

/**
 * 'log' (the default): ingress is answered once its input is in the log.
 * FRESHET_DURABILITY 'none' answers at once and loses input after the last
 * checkpoint in a restart: only for measuring what the log costs (bench/edge).
 */
export function ingressDurability(env) {
  return env.FRESHET_DURABILITY === 'none' ? 'none' : 'log';
}

/** 'durable_object' (the default) or 'kv': FRESHET_CHECKPOINT_STORE. */
export function checkpointStore(env) {
  return env.FRESHET_CHECKPOINT_STORE === 'kv' ? 'kv' : 'durable_object';
}

/**
 * The storage a pipeline's Pipeline gets: the log in the object's storage,
 * checkpoints where checkpointStore() says.
 * @returns {Promise<object>} put/get/list/delete
 */
export async function pipelineStorage(ctx, env, name) {
  const { local, kv } = storagesOf(ctx, env, name);
  if (checkpointStore(env) === 'kv') return new LogApart(local, kv);
  await adoptKvCheckpoints(local, kv);
  return local;
}

/** Deletes a pipeline's log and checkpoints, wherever they are. */
export async function wipePipelineStorage(ctx, env, name) {
  const { local, kv } = storagesOf(ctx, env, name);
  for (const storage of [local, kv]) for (const blob of await storage.list('')) await storage.delete(blob);
}

/** Where a pipeline's blobs may be: the object's own storage, and its prefix in KV. */
function storagesOf(ctx, env, name) {
  return {
    local: new DurableObjectStorage(ctx.storage, { prefix: OBJECT_PREFIX, maxValueBytes: PART_BYTES }),
    kv: new KVStorage(env.KV, { prefix: checkpointPrefix(name) }),
  };
}

/** A pipeline that checkpointed to KV before: its checkpoints move into the object's storage (once, before anything is written there). */
async function adoptKvCheckpoints(local, kv) {
  if ((await local.list(CHECKPOINT_PREFIX)).length) return;
  const names = await kv.list(CHECKPOINT_PREFIX);
  if (!names.length) return;
  // Parts before manifests (the names sort so), as the package writes them.
  for (const name of names) {
    const bytes = await kv.get(name);
    if (bytes) await local.put(name, bytes);
  }
  for (const name of names) await kv.delete(name);
}

/** The input log in `local`, everything else (checkpoints) in `other`. */
class LogApart {
  #local;
  #other;

  constructor(local, other) {
    this.#local = local;
    this.#other = other;
  }

  #of(name) {
    return name.startsWith(LOG_PREFIX) ? this.#local : this.#other;
  }

  put(name, bytes) {
    return this.#of(name).put(name, bytes);
  }

  get(name) {
    return this.#of(name).get(name);
  }

  delete(name) {
    return this.#of(name).delete(name);
  }

  async list(prefix = '') {
    if (prefix.startsWith(LOG_PREFIX)) return this.#local.list(prefix);
    const names = await this.#other.list(prefix);
    if (LOG_PREFIX.startsWith(prefix)) names.push(...(await this.#local.list(prefix)).filter((name) => name.startsWith(LOG_PREFIX)));
    return names.sort();
  }

  describe() {
    return { type: 'LogApart', log: this.#local.describe(), checkpoints: this.#other.describe() };
  }
}
