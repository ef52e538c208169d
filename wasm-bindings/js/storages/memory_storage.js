// MemoryStorage: checkpoint blobs in a Map, for tests and for pipelines that
// only need checkpoints while the process lives (nothing survives a restart).
// Blobs are copied in and out, so a caller that reuses its buffer can neither
// change a stored checkpoint nor see another caller's edits.

import { checkBytes, checkName, checkPrefix } from './blob_names.js';

const LABEL = 'MemoryStorage';

export class MemoryStorage {
  /** @type {Map<string, Uint8Array>} */
  #blobs = new Map();

  /** Stores a copy of `bytes` under `name`, replacing any blob of that name. */
  async put(name, bytes) {
    checkName(LABEL, 'write blob', name);
    checkBytes(LABEL, name, bytes);
    this.#blobs.set(name, bytes.slice());
  }

  /** A copy of the blob, or undefined when there is none. */
  async get(name) {
    checkName(LABEL, 'read blob', name);
    return this.#blobs.get(name)?.slice();
  }

  /** Names that start with `prefix`, sorted. */
  async list(prefix = '') {
    checkPrefix(LABEL, prefix);
    return [...this.#blobs.keys()].filter((name) => name.startsWith(prefix)).sort();
  }

  /** Removes the blob; removing a missing blob is not an error. */
  async delete(name) {
    checkName(LABEL, 'delete blob', name);
    this.#blobs.delete(name);
  }

  describe() {
    return { type: 'MemoryStorage' };
  }
}
