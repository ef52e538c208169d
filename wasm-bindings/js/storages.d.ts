// Declarations for the storages (checkpoint blob stores) and the persistent
// sinks; index.d.ts re-exports them. FileStorage is exported by the Node
// entry only.
import type { Chunk, Row, Sink } from './index.js';

/**
 * Where a pipeline keeps its checkpoints: named blobs of bytes. Every method
 * fails with a FreshetError of code 'STORAGE_ERROR' whose message names the
 * storage and the blob (also in `error.details.storage` / `.blob`).
 *
 * Blob names are portable across storages: non-empty, at most 200 UTF-8
 * bytes, no '/' or '\\', no NUL, not starting with '.'.
 */
export interface CheckpointStorage {
  /** Stores a copy of `bytes` under `name`, replacing any blob of that name. */
  put(name: string, bytes: Uint8Array): Promise<void>;
  /** The blob, or undefined when there is none. */
  get(name: string): Promise<Uint8Array | undefined>;
  /** The names that start with `prefix` (default ''), sorted. */
  list(prefix?: string): Promise<string[]>;
  /** Removes the blob; a missing blob is not an error. */
  delete(name: string): Promise<void>;
  /** A JSON-able description. */
  describe(): { type: string; [key: string]: unknown };
}

/** Checkpoints in memory: for tests, or when nothing needs to survive the process. */
export class MemoryStorage implements CheckpointStorage {
  constructor();
  put(name: string, bytes: Uint8Array): Promise<void>;
  get(name: string): Promise<Uint8Array | undefined>;
  list(prefix?: string): Promise<string[]>;
  delete(name: string): Promise<void>;
  describe(): { type: 'MemoryStorage' };
}

/**
 * Checkpoints as files of one folder (Node only: exported by the package's
 * Node entry alone). Writes go to a temporary file, then are renamed: a crash
 * leaves the old blob or the new one, never half of one.
 */
export class FileStorage implements CheckpointStorage {
  constructor(dir: string);
  /** The folder, as an absolute path. */
  readonly dir: string;
  put(name: string, bytes: Uint8Array): Promise<void>;
  get(name: string): Promise<Uint8Array | undefined>;
  list(prefix?: string): Promise<string[]>;
  delete(name: string): Promise<void>;
  describe(): { type: 'FileStorage'; dir: string };
}

/** Checkpoints in the browser's IndexedDB: database 'freshet:<name>', store 'blobs'. */
export class IndexedDBStorage implements CheckpointStorage {
  constructor(name: string);
  /** The IndexedDB database name ('freshet:<name>'). */
  readonly database: string;
  put(name: string, bytes: Uint8Array): Promise<void>;
  get(name: string): Promise<Uint8Array | undefined>;
  list(prefix?: string): Promise<string[]>;
  delete(name: string): Promise<void>;
  /** Closes the connection; a later call reopens it. */
  close(): void;
  describe(): { type: 'IndexedDBStorage'; name: string };
}

/** The part of a Workers KV namespace binding (`env.MY_KV`) that the package uses. */
export interface KVNamespaceLike {
  get(key: string, options: { type: 'arrayBuffer' }): Promise<ArrayBuffer | null>;
  get(key: string): Promise<string | null>;
  put(key: string, value: string | ArrayBuffer): Promise<void>;
  delete(key: string): Promise<void>;
  list(options: { prefix?: string; cursor?: string }): Promise<{
    keys: { name: string }[];
    list_complete: boolean;
    cursor?: string;
  }>;
}

/**
 * Checkpoints in Workers KV, one entry per blob under `prefix` (values up to
 * 25 MiB). KV is eventually consistent: list() after put() may lag in other
 * locations; the checkpoint protocol (manifest written last) tolerates it.
 */
export class KVStorage implements CheckpointStorage {
  constructor(namespace: KVNamespaceLike, options?: { prefix?: string });
  readonly prefix: string;
  put(name: string, bytes: Uint8Array): Promise<void>;
  get(name: string): Promise<Uint8Array | undefined>;
  list(prefix?: string): Promise<string[]>;
  delete(name: string): Promise<void>;
  describe(): { type: 'KVStorage'; prefix: string };
}

/** The key-value API of a Durable Object's storage (`ctx.storage`), as DurableObjectStorage uses it. */
export interface DurableObjectStorageLike {
  get(key: string): Promise<unknown>;
  get(keys: string[]): Promise<Map<string, unknown>>;
  put(key: string, value: unknown): Promise<void>;
  put(entries: Record<string, unknown>): Promise<void>;
  delete(key: string | string[]): Promise<unknown>;
  list(options?: { prefix?: string }): Promise<Map<string, unknown>>;
}

/**
 * Blobs in a Durable Object's own storage (transactional, strongly
 * consistent, local to the object): where the edge worker keeps a
 * pipeline's input log and checkpoints. A blob over `maxValueBytes`
 * (default 128 KiB, the limit of a KV-backed object; a SQLite-backed one
 * takes up to about 2 MB) is split into parts under a generation of its own
 * and switched in by one small record, so a crash mid-put leaves the old blob.
 */
export class DurableObjectStorage implements CheckpointStorage {
  constructor(storage: DurableObjectStorageLike, options?: { prefix?: string; maxValueBytes?: number });
  put(name: string, bytes: Uint8Array): Promise<void>;
  get(name: string): Promise<Uint8Array | undefined>;
  list(prefix?: string): Promise<string[]>;
  delete(name: string): Promise<void>;
  describe(): { type: 'DurableObjectStorage'; prefix: string };
}

/**
 * Mirrors a view into an IndexedDB object store (created when missing). Through
 * an index: key JSON.stringify of the key's values in index order (e.g.
 * '["west"]') → row. On a view: stable JSON of the row (columns sorted) →
 * { row, count }. One transaction per chunk.
 */
export class IndexedDBSink implements Sink {
  constructor(options: { database: string; store: string });
  write(chunk: Chunk): Promise<void>;
  /** Empties the store. */
  reset(): Promise<void>;
  describe(): { type: 'IndexedDBSink'; database: string; store: string };
  /** Closes the connection; a later write reopens it. */
  close(): void;
}

/** A view row as IndexedDBSink and KVSink store it on a view (KVSink adds sequenceNumber). */
export interface CountedRow {
  row: Row;
  count: number;
  sequenceNumber?: number | null;
}

/**
 * Mirrors a view into Workers KV, one entry per key (index: prefix + key JSON
 * → row) or per distinct row (view: prefix + row JSON → { row, count,
 * sequenceNumber }). `prefix` must not be empty: reset() deletes every key
 * under it.
 */
export class KVSink implements Sink {
  constructor(namespace: KVNamespaceLike, options: { prefix: string });
  write(chunk: Chunk): Promise<void>;
  /** Deletes every key under the prefix. */
  reset(): Promise<void>;
  describe(): { type: 'KVSink'; prefix: string };
}
