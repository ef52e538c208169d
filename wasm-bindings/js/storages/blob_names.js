// Blob names and storage errors, shared by every storage.
//
// A pipeline is written once and run on whichever storage its host has, so a
// name that works in one storage must work in all of them. The strictest host
// sets the rules: FileStorage turns a name into a file name (no separators,
// no '.'/'..', no hidden files, which is where its temporary files live, and
// a bounded length), and a KV key is at most 512 bytes including the prefix.

import { FreshetError } from '../errors.js';

/** Longest blob name, in UTF-8 bytes: a file name (255 bytes) less room for a temp suffix. */
export const MAX_NAME_BYTES = 200;

const encoder = new TextEncoder();

/**
 * The STORAGE_ERROR every storage throws: names the storage, the blob and
 * what was being done, then the cause.
 * @param {string} storage e.g. `FileStorage('/var/lib/p')`
 * @param {string} action e.g. 'write blob', 'list blobs with prefix'
 * @param {string} blob the blob name or the prefix
 * @param {unknown} [cause]
 */
export function storageError(storage, action, blob, cause) {
  const reason = cause === undefined ? '' : `: ${cause instanceof Error ? cause.message : String(cause)}`;
  const error = new FreshetError('STORAGE_ERROR', `${storage}: cannot ${action} '${blob}'${reason}`);
  if (cause !== undefined) error.cause = cause;
  error.details = { ...error.details, storage, blob };
  return error;
}

/** Throws STORAGE_ERROR unless `name` is a portable blob name; returns it. */
export function checkName(storage, action, name) {
  if (typeof name !== 'string') throw storageError(storage, action, String(name), 'a blob name must be a string');
  let problem = null;
  if (name === '') problem = 'a blob name must not be empty';
  else if (/[/\\]/.test(name)) problem = 'a blob name must not contain a path separator (/ or \\)';
  else if (name.includes('\0')) problem = 'a blob name must not contain NUL';
  else if (name.startsWith('.')) problem = "a blob name must not start with '.'";
  else if (encoder.encode(name).length > MAX_NAME_BYTES) problem = `a blob name must be at most ${MAX_NAME_BYTES} UTF-8 bytes`;
  if (problem) throw storageError(storage, action, name, problem);
  return name;
}

/** Throws STORAGE_ERROR unless `prefix` is a string (any string, '' lists everything). */
export function checkPrefix(storage, prefix) {
  if (typeof prefix !== 'string') throw storageError(storage, 'list blobs with prefix', String(prefix), 'a prefix must be a string');
  return prefix;
}

/** Throws STORAGE_ERROR unless `bytes` is a Uint8Array (a Node Buffer is one). */
export function checkBytes(storage, name, bytes) {
  if (!(bytes instanceof Uint8Array)) {
    throw storageError(storage, 'write blob', name, `the bytes must be a Uint8Array, not ${bytes === null ? 'null' : typeof bytes}`);
  }
  return bytes;
}

/**
 * An ArrayBuffer holding exactly `bytes`: a view into a larger buffer is
 * copied, so that structured clone (IndexedDB) and KV store only the blob.
 */
export function exactBuffer(bytes) {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) {
    return bytes.buffer;
  }
  return bytes.slice().buffer;
}
