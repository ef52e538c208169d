// Checkpoints over a JS storage: the protocol of
// core/include/freshet/checkpoint/checkpoint.h, driven from JS because
// storages are asynchronous (IndexedDB, KV, files) and the engine is not.
//
//   write:   encode at a step boundary (synchronously, so the state is one
//            step's), then put the parts, then the manifest, then remove
//            what the newest two checkpoints no longer need.
//   resume:  the newest manifest that verifies wins; a damaged one is skipped
//            (and reported), another program's (format 7) is restored with
//            what changed bootstrapped, or PROGRAM_MISMATCH when it cannot be
//            (older formats: always) unless onProgramChange is 'restart'
//            (program_change.cpp says which), one of a format version this
//            package does not read is CHECKPOINT_VERSION unless
//            onIncompatibleCheckpoint is 'restart' (checkpoint_versions.js).
//   failure: a write that fails leaves the newest whole checkpoint in use
//            (its manifest is the last thing written); stats say so.
// A storage has put(name, bytes), get(name) → bytes | undefined,
// list(prefix) → names, delete(name).

import { checkVersion } from './checkpoint_versions.js';
import { FreshetError, unwrap } from './errors.js';

export const PREFIX = 'checkpoint-';
const MAX_PART_BYTES = 16 * 1024 * 1024;  // a Workers KV value holds 25 MiB at most
const MANIFEST = /^checkpoint-(\d{20})\.manifest$/;

/** What stats().checkpoint shows. */
export function emptyStatus() {
  return { sequenceNumber: null, step: null, restoredFrom: null, skippedDamaged: [], lastError: null,
           failedWrites: 0, lastFailure: null };
}

/** A checkpoint write failed: `status` keeps the checkpoint in use and says what failed. */
export function noteFailedWrite(status, error) {
  status.lastError = error.message;
  ++status.failedWrites;
  status.lastFailure = { error: error.message, code: error.code ?? 'STORAGE_ERROR', at: new Date().toISOString(),
                         inUse: status.sequenceNumber };
}

async function storageCall(what, call) {
  try {
    return await call();
  } catch (error) {
    if (error instanceof FreshetError) throw error;
    throw new FreshetError('STORAGE_ERROR', `${what}: ${error?.message ?? error}`);
  }
}

function toBytes(blob) {
  if (blob === undefined || blob === null) return undefined;
  if (blob instanceof Uint8Array) return blob;
  if (blob instanceof ArrayBuffer) return new Uint8Array(blob);
  if (ArrayBuffer.isView(blob)) return new Uint8Array(blob.buffer, blob.byteOffset, blob.byteLength);
  throw new FreshetError('STORAGE_ERROR', 'the storage returned something other than bytes');
}

/**
 * Opens an engine for `sql`, resumed from the newest valid checkpoint in
 * `storage`. `openEngine()` returns a fresh engine (and throws SQL errors).
 * `startedAfresh`: a checkpoint of another program, or of a format version
 * not read, made it start afresh (onProgramChange or onIncompatibleCheckpoint 'restart').
 * @returns {Promise<{ engine: object, status: object, startedAfresh: boolean }>}
 */
export async function resume(openEngine, storage, onProgramChange, onIncompatibleCheckpoint = 'fail') {
  let engine = openEngine();
  const status = emptyStatus();
  try {
    const names = await storageCall('listing checkpoints', () => storage.list(PREFIX));
    const manifests = names.filter((name) => MANIFEST.test(name)).sort().reverse();
    for (const name of manifests) {
      const sequence = Number(MANIFEST.exec(name)[1]);
      try {
        const manifest = toBytes(await storageCall(`reading ${name}`, () => storage.get(name)));
        if (!manifest) throw new FreshetError('CHECKPOINT_CORRUPT', `checkpoint ${sequence}: the manifest is missing`);
        try {
          checkVersion(manifest, sequence);
        } catch (error) {
          // A fresh start, as for another program (its input log goes too).
          if (onIncompatibleCheckpoint === 'restart') return { engine, status, startedAfresh: true };
          throw error;
        }
        const info = JSON.parse(unwrap(engine.checkpointReadManifest(manifest)).text);
        // Format 7 restores into a changed program, bootstrapping what changed
        // (restoreFinish says PROGRAM_MISMATCH when it cannot); older ones cannot.
        if (!info.program_matches && !(info.version >= 7)) {
          if (onProgramChange === 'restart') return { engine, status, startedAfresh: true };  // a fresh start; newer checkpoints follow
          throw new FreshetError('PROGRAM_MISMATCH', `checkpoint ${sequence} was written by a different program; ` +
            "resume with the program that wrote it, or pass onProgramChange: 'restart' to start afresh");
        }
        for (const part of info.parts) {
          const bytes = toBytes(await storageCall(`reading ${part}`, () => storage.get(part)));
          if (!bytes) throw new FreshetError('CHECKPOINT_CORRUPT', `checkpoint ${sequence}: part '${part}' is missing`);
          engine.restoreAddPart(bytes);
        }
        try {
          unwrap(engine.restoreFinish());
        } catch (error) {
          const restart = (error.code === 'PROGRAM_MISMATCH' && onProgramChange === 'restart') ||
            (error.code === 'CHECKPOINT_VERSION' && onIncompatibleCheckpoint === 'restart');
          if (!restart) throw error;
          engine.delete();  // half restored: a fresh start on a fresh one
          engine = openEngine();
          return { engine, status, startedAfresh: true };
        }
        Object.assign(status, { sequenceNumber: sequence, step: info.step, restoredFrom: sequence });
        return { engine, status, startedAfresh: false };
      } catch (error) {
        if (error.code !== 'CHECKPOINT_CORRUPT') throw error;
        status.skippedDamaged.push(sequence);
        status.lastError = error.message;
        engine.delete();  // half restored: start over on a fresh one
        engine = openEngine();
      }
    }
    if (manifests.length && status.skippedDamaged.length === manifests.length) {
      throw new FreshetError('CHECKPOINT_CORRUPT', `no valid checkpoint is left: ${status.lastError}`);
    }
    return { engine, status, startedAfresh: false };
  } catch (error) {
    engine.delete();
    throw error;
  }
}

/**
 * Writes one checkpoint of `engine` to `storage`; updates `status`.
 * `hostState()` gives the host's bytes as of the encoded step.
 * @returns {Promise<{ sequenceNumber: number, step: number, bytes: number }>}
 */
export async function writeCheckpoint(Engine, engine, storage, status, hostState) {
  const names = await storageCall('listing checkpoints', () => storage.list(PREFIX));
  let sequence = Engine.nextCheckpointSequence(names.join('\n'));
  if (status.sequenceNumber !== null) sequence = Math.max(sequence, status.sequenceNumber + 1);
  // Encode and copy out in one go: nothing may step or ingest in between.
  engine.setHostState(hostState());
  const info = JSON.parse(unwrap(engine.checkpointPrepare(sequence, MAX_PART_BYTES)).text);
  const blobs = info.blobs.map((name, i) => ({ name, bytes: engine.checkpointBlob(i).slice() }));
  engine.checkpointRelease();
  for (const { name, bytes } of blobs) await storageCall(`writing ${name}`, () => storage.put(name, bytes));
  Object.assign(status, { sequenceNumber: sequence, step: info.step });
  const all = [...names, ...blobs.map((blob) => blob.name)];
  for (const name of Engine.checkpointBlobsToPrune(all.join('\n'), sequence).split('\n').filter(Boolean)) {
    try {
      await storage.delete(name);
    } catch (error) {
      status.lastError = `removing ${name}: ${error?.message ?? error}`;  // the checkpoint is whole; it only costs space
    }
  }
  return { sequenceNumber: sequence, step: info.step, bytes: info.bytes };
}
