// InputLog: the durable input log of `durability: 'log'` (docs/js-api.md) —
// every accepted ingest and every step since the last checkpoint, in order,
// in the pipeline's storage under 'inputlog-', so that checkpoint + log
// re-runs the same steps with the same input after a crash.
//
// ## Design
// Records are numbered from 0 for the life of the storage (`seq`); a
// checkpoint's host state says how many it covers. Records wait in memory
// and are written in groups: one blob per group, named by its first record
// ('inputlog-<20 digits>'), one put at a time. So the blobs in storage are
// always a prefix of what was appended (a group is written only after the
// one before it), and a record is durable once its group's put resolved.
//   ingest record: { kind: 'ingest', seq, table, format, updateFormat, array,
//                    incarnation, token } + the payload bytes
//   step record:   { kind: 'step', seq, step, now }   (now: NOW() in µs, or null)
// A step record is appended after its step ran; the pipeline runs a step
// only once every ingest before it is durable, so a step record that did
// not reach the storage covers no input the log lacks: replay's next step
// takes exactly the same input. So step records are written lazily: with
// the next ingest's group, or LAZY_FLUSH_MS later (a client that sends its
// next ingest on the answer to the last then pays one put per ingest, not
// two). A crash within that time re-runs the step after the restart (the
// same input; a step without input, a temporal filter's, at another NOW()).
//
// Blob layout: records back to back, each
//   u32 header bytes | header JSON (UTF-8) | u32 payload bytes | payload
// (little-endian). A blob that does not decode is CHECKPOINT_CORRUPT.

import { FreshetError } from './errors.js';

export const LOG_PREFIX = 'inputlog-';
const BLOB = /^inputlog-(\d{20})$/;
const LAZY_FLUSH_MS = 20;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function blobName(firstSeq) {
  return LOG_PREFIX + String(firstSeq).padStart(20, '0');
}

function corrupt(message) {
  return new FreshetError('CHECKPOINT_CORRUPT', `input log: ${message}`);
}

/** One blob of records (each { header, payload }). @returns {Uint8Array} */
export function encodeRecords(records) {
  const parts = records.map(({ header, payload }) => [encoder.encode(JSON.stringify(header)), payload ?? new Uint8Array(0)]);
  const size = parts.reduce((sum, [head, body]) => sum + 8 + head.byteLength + body.byteLength, 0);
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  let at = 0;
  for (const [head, body] of parts) {
    view.setUint32(at, head.byteLength, true);
    bytes.set(head, at + 4);
    at += 4 + head.byteLength;
    view.setUint32(at, body.byteLength, true);
    bytes.set(body, at + 4);
    at += 4 + body.byteLength;
  }
  return bytes;
}

/** The records of one blob. @returns {{ header: object, payload: Uint8Array }[]} */
export function decodeRecords(name, bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records = [];
  let at = 0;
  const take = () => {
    if (at + 4 > bytes.byteLength) throw corrupt(`blob '${name}' ends inside a record (byte ${at})`);
    const length = view.getUint32(at, true);
    if (at + 4 + length > bytes.byteLength) throw corrupt(`blob '${name}' ends inside a record (byte ${at})`);
    const slice = bytes.subarray(at + 4, at + 4 + length);
    at += 4 + length;
    return slice;
  };
  while (at < bytes.byteLength) {
    let header;
    try {
      header = JSON.parse(decoder.decode(take()));
    } catch (error) {
      if (error instanceof FreshetError) throw error;
      throw corrupt(`blob '${name}' has a record header that is not JSON (byte ${at})`);
    }
    records.push({ header, payload: take() });
  }
  return records;
}

export class InputLog {
  #storage;
  #nextSeq = 0;
  #queue = [];            // { header, payload, resolve, reject } not yet handed to a put
  #writing = null;        // the put in flight (a Promise), or null
  #failure = null;        // a put failed: the log stops (the pipeline fails with it)
  #idle = [];             // resolvers waiting for the queue and the put to finish
  #pendingInput = 0;      // ingest records not yet durable
  #lastInput = Promise.resolve();  // settles when the newest ingest record is durable (or failed)
  #lazyTimer = null;      // writes lazy records nobody else wrote
  #flushAll = false;      // idle() asked for lazy records too
  /** Called once when a write fails (the pipeline fails with it). */
  onFailure = () => {};

  /** @param {object} storage put/get/list/delete (checkpoints.js) */
  constructor(storage) {
    this.#storage = storage;
  }

  /**
   * Reads the whole log. Records below `covered` (what the restored
   * checkpoint holds) are dropped; the rest must follow `covered` without a
   * gap. @returns {Promise<{ header: object, payload: Uint8Array }[]>}
   */
  async load(covered) {
    const names = (await this.#call('list', LOG_PREFIX, () => this.#storage.list(LOG_PREFIX))).filter((n) => BLOB.test(n)).sort();
    // Blobs the checkpoint holds entirely (the next one starts at or before `covered`) are not read.
    let first = 0;
    while (first + 1 < names.length && Number(BLOB.exec(names[first + 1])[1]) <= covered) ++first;
    const records = [];
    for (const name of names.slice(first)) {
      const bytes = await this.#call('read', name, () => this.#storage.get(name));
      if (!bytes) throw corrupt(`blob '${name}' was listed but is missing`);
      const found = decodeRecords(name, bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
      const first = Number(BLOB.exec(name)[1]);
      found.forEach((record, i) => {
        if (record.header.seq !== first + i) throw corrupt(`blob '${name}': record ${i} has seq ${record.header.seq}, expected ${first + i}`);
      });
      records.push(...found);
    }
    const kept = records.filter((record) => record.header.seq >= covered);
    for (let i = 0; i < kept.length; ++i) {
      if (kept[i].header.seq !== covered + i) {
        throw corrupt(`record ${covered + i} is missing (the log goes on at ${kept[i].header.seq}): ` +
                      'the checkpoint restored is older than the log kept');
      }
    }
    this.#nextSeq = Math.max(covered, records.length ? records[records.length - 1].header.seq + 1 : 0);
    return kept;
  }

  /** The number the next record gets (a checkpoint taken now covers the records below it). */
  get nextSeq() {
    return this.#nextSeq;
  }

  /** Records appended but not yet durable (or not yet failed). */
  get pending() {
    return this.#queue.length + (this.#writing ? 1 : 0);
  }

  /** Ingest records appended but not yet durable: a step waits for none to be left. */
  get pendingInput() {
    return this.#pendingInput;
  }

  /** Settles once every ingest record appended so far is durable (or its write failed). */
  inputDurable() {
    return this.#lastInput;
  }

  /**
   * Appends a record; resolves once it is durable, rejects (STORAGE_ERROR)
   * when its write failed. `header.seq` is set here.
   * @returns {Promise<void>}
   */
  append(header, payload, { lazy = false } = {}) {
    if (this.#failure) return Promise.reject(this.#failure);
    header.seq = this.#nextSeq++;
    const durable = new Promise((resolve, reject) => this.#queue.push({ header, payload, lazy, resolve, reject }));
    durable.catch(() => {});
    if (header.kind === 'ingest') {
      ++this.#pendingInput;
      this.#lastInput = durable.catch(() => {}).finally(() => --this.#pendingInput);
    }
    if (lazy) this.#flushLater();
    else this.#flush();
    return durable;
  }

  /** Resolves once nothing appended so far is waiting to be written (lazy records are written now). */
  idle() {
    if (!this.pending) return Promise.resolve();
    this.#flushAll = true;
    this.#flush();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  // Waits a microtask: the ingests of one synchronous burst share a put.
  #flush() {
    clearTimeout(this.#lazyTimer);
    this.#lazyTimer = null;
    if (!this.#writing) this.#writing = Promise.resolve().then(() => this.#drain());
  }

  #flushLater() {
    if (this.#writing || this.#lazyTimer) return;
    this.#lazyTimer = setTimeout(() => {
      this.#flushAll = true;
      this.#flush();
    }, LAZY_FLUSH_MS);
    this.#lazyTimer?.unref?.();  // does not keep a Node process alive
  }

  /**
   * Deletes the blobs whose records are all below `covered` (a checkpoint
   * holds them): those the next blob starts at or before `covered` (a blob's
   * records end where the next one's begin; the last blob stays).
   */
  async truncate(covered) {
    const names = (await this.#call('list', LOG_PREFIX, () => this.#storage.list(LOG_PREFIX))).filter((n) => BLOB.test(n)).sort();
    for (let i = 0; i + 1 < names.length && Number(BLOB.exec(names[i + 1])[1]) <= covered; ++i) {
      await this.#call('delete', names[i], () => this.#storage.delete(names[i]));
    }
  }

  /** Deletes the whole log (a fresh start: another program). */
  async clear() {
    const names = await this.#call('list', LOG_PREFIX, () => this.#storage.list(LOG_PREFIX));
    for (const name of names.filter((n) => BLOB.test(n))) await this.#call('delete', name, () => this.#storage.delete(name));
    this.#nextSeq = 0;
  }

  /** Writes the queue group by group while it holds a record that is not lazy (any record, after idle() or the timer). */
  async #drain() {
    while (!this.#failure && (this.#flushAll ? this.#queue.length : this.#queue.some((record) => !record.lazy))) {
      const group = this.#queue.splice(0);
      const name = blobName(group[0].header.seq);
      try {
        await this.#call('write', name, () => this.#storage.put(name, encodeRecords(group)));
        for (const record of group) record.resolve();
      } catch (error) {
        this.#failure = error;
        for (const record of [...group, ...this.#queue.splice(0)]) record.reject(error);
        this.onFailure(error);
      }
    }
    this.#writing = null;
    this.#flushAll = false;
    if (this.#queue.length && !this.#failure) this.#flushLater();  // lazy records left
    if (!this.pending) for (const resolve of this.#idle.splice(0)) resolve();
  }

  async #call(action, name, call) {
    try {
      return await call();
    } catch (error) {
      if (error instanceof FreshetError) throw error;
      throw new FreshetError('STORAGE_ERROR', `input log: cannot ${action} '${name}': ${error?.message ?? error}`);
    }
  }
}

/** The checkpoint's host state: the tokens it covers and, with a log, the log records it holds. */
export function hostStateText(tokensText, logCovered) {
  if (logCovered === null) return tokensText;
  return JSON.stringify({ ...JSON.parse(tokensText), log: logCovered });
}

/**
 * The input log of a resumed pipeline and its records after the restored
 * checkpoint. A checkpoint of another program or of an unread format that
 * made the pipeline start afresh (onProgramChange, onIncompatibleCheckpoint:
 * 'restart') makes the log another state's too, and a checkpoint written
 * without a log (durability 'none') is newer than any log left: either way
 * it goes.
 */
export async function openLog(storage, hostState, restored, startedAfresh) {
  let covered = null;
  try {
    covered = JSON.parse(hostState || '{}').log ?? null;
  } catch {
    // a host state of another kind: no log position in it
  }
  const log = new InputLog(storage);
  if (startedAfresh || (restored && covered === null)) {
    await log.clear();
    return { log, records: [] };
  }
  return { log, records: await log.load(covered ?? 0) };
}
