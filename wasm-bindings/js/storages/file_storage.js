// FileStorage(dir): checkpoint blobs as files of one folder (Node only; the
// package exports it from its Node entry alone, so browser and workerd
// bundles never see `node:fs`).
//
// A blob is written to a temporary file in the same folder, flushed to disk,
// then renamed over the old one: rename is atomic within a file system, so a
// crash leaves either the old blob or the new one, never half of one. The
// temporary files are hidden ('.name.<pid>-<n>.tmp'): blob names may not start
// with '.', so list() and get() never see them. One a crash left behind is
// harmless and may be deleted by hand.

import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import { checkBytes, checkName, checkPrefix, storageError } from './blob_names.js';

let tempCounter = 0;

export class FileStorage {
  #dir;
  #label;

  /** @param {string} dir the folder (created on the first write) */
  constructor(dir) {
    if (typeof dir !== 'string' || dir === '') {
      throw storageError('FileStorage', 'use folder', String(dir), 'the folder must be a non-empty string');
    }
    this.#dir = resolve(dir);
    this.#label = `FileStorage('${this.#dir}')`;
  }

  get dir() {
    return this.#dir;
  }

  async put(name, bytes) {
    checkName(this.#label, 'write blob', name);
    checkBytes(this.#label, name, bytes);
    const target = join(this.#dir, name);
    const temp = join(this.#dir, `.${name}.${process.pid}-${++tempCounter}.tmp`);
    try {
      await mkdir(this.#dir, { recursive: true });
      const file = await open(temp, 'wx');
      try {
        await file.writeFile(bytes);
        // Without this a power cut after the rename could leave an empty file
        // under the new name (the rename reached the disk, the data did not).
        await file.datasync();
      } finally {
        await file.close();
      }
      await rename(temp, target);
    } catch (error) {
      await unlink(temp).catch(() => {});
      throw storageError(this.#label, 'write blob', name, error);
    }
    await this.#syncDir();
  }

  async get(name) {
    checkName(this.#label, 'read blob', name);
    try {
      const buffer = await readFile(join(this.#dir, name));
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    } catch (error) {
      if (error?.code === 'ENOENT') return undefined;
      throw storageError(this.#label, 'read blob', name, error);
    }
  }

  async list(prefix = '') {
    checkPrefix(this.#label, prefix);
    let entries;
    try {
      entries = await readdir(this.#dir, { withFileTypes: true });
    } catch (error) {
      if (error?.code === 'ENOENT') return [];  // nothing written yet
      throw storageError(this.#label, 'list blobs with prefix', prefix, error);
    }
    return entries
      .filter((entry) => entry.isFile() && !entry.name.startsWith('.') && entry.name.startsWith(prefix))
      .map((entry) => entry.name)
      .sort();
  }

  async delete(name) {
    checkName(this.#label, 'delete blob', name);
    try {
      await unlink(join(this.#dir, name));
    } catch (error) {
      if (error?.code === 'ENOENT') return;  // deleting a missing blob is not an error
      throw storageError(this.#label, 'delete blob', name, error);
    }
    await this.#syncDir();
  }

  describe() {
    return { type: 'FileStorage', dir: this.#dir };
  }

  // Makes a rename or unlink durable (the folder's entry list reaches the
  // disk). Hosts that cannot open a folder (Windows) skip it.
  async #syncDir() {
    let handle;
    try {
      handle = await open(this.#dir, 'r');
      await handle.sync();
    } catch {
      // best effort: the blob itself is already complete on disk
    } finally {
      await handle?.close().catch(() => {});
    }
  }
}
