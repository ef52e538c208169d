// MemoryStorage and FileStorage: the storage contract (storage_contract.mjs),
// FileStorage's atomic writes (a crash leaves the old blob or the new one,
// never half of one), and STORAGE_ERROR shapes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { FreshetError } from '../../wasm-bindings/js/errors.js';
import { FileStorage } from '../../wasm-bindings/js/storages/file_storage.js';
import { MemoryStorage } from '../../wasm-bindings/js/storages/memory_storage.js';
import { checkStorageContract, expectStorageError } from './storage_contract.mjs';

const scratch = mkdtempSync(join(tmpdir(), 'freshet-storages-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('MemoryStorage meets the storage contract', async () => {
  assert.ok((await checkStorageContract(new MemoryStorage(), 'MemoryStorage')) > 30);
});

test('FileStorage meets the storage contract, creating its folder on the first write', async () => {
  const dir = join(scratch, 'contract', 'nested');
  const storage = new FileStorage(dir);
  assert.deepEqual(await storage.list(''), [], 'a folder that does not exist yet lists nothing');
  assert.ok((await checkStorageContract(storage, `FileStorage('${dir}')`)) > 30);
  assert.deepEqual(readdirSync(dir), [], 'no temporary files left behind');
});

test('FileStorage: blobs are files of the folder and survive a new instance', async () => {
  const dir = join(scratch, 'reopen');
  await new FileStorage(dir).put('checkpoint-1', new Uint8Array([1, 2]));
  assert.deepEqual(readdirSync(dir), ['checkpoint-1']);
  assert.deepEqual([...await new FileStorage(dir).get('checkpoint-1')], [1, 2]);
});

test('FileStorage: a write that crashed (its temporary file left behind) leaves the old blob', async () => {
  const dir = join(scratch, 'crash');
  const storage = new FileStorage(dir);
  await storage.put('manifest', new Uint8Array([1, 1, 1]));
  // What a process killed mid-write leaves: half a temporary file beside the blob.
  writeFileSync(join(dir, '.manifest.4242-1.tmp'), new Uint8Array([2, 2]));
  assert.deepEqual([...await storage.get('manifest')], [1, 1, 1]);
  assert.deepEqual(await storage.list(''), ['manifest'], 'temporary files are not blobs');
  assert.deepEqual(await storage.list('.'), []);
  await storage.put('manifest', new Uint8Array([3]));
  assert.deepEqual([...await storage.get('manifest')], [3], 'the next write goes through');
});

test('FileStorage: a process killed while writing leaves the old or the new blob, whole', async () => {
  const dir = join(scratch, 'kill');
  const size = 8 * 1024 * 1024;
  const moduleUrl = new URL('../../wasm-bindings/js/storages/file_storage.js', import.meta.url).href;
  // The child rewrites one blob with alternating contents (all bytes 1, then
  // all bytes 2, ...) until it is killed.
  const child = spawn(process.execPath, ['--input-type=module', '-e', `
    const { FileStorage } = await import(${JSON.stringify(moduleUrl)});
    const storage = new FileStorage(${JSON.stringify(dir)});
    for (let round = 1; ; ++round) {
      await storage.put('blob', new Uint8Array(${size}).fill(round % 250 + 1));
      if (round === 1) process.stdout.write('first\\n');
    }`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  await new Promise((resolve) => setTimeout(resolve, 150));
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  const blob = await new FileStorage(dir).get('blob');
  assert.equal(blob.length, size, 'the blob is whole');
  assert.ok(blob.every((byte) => byte === blob[0]), 'the blob is one version, not a mix');
  assert.deepEqual(await new FileStorage(dir).list(''), ['blob']);
});

test('FileStorage: failures are STORAGE_ERRORs naming the storage, the blob and the cause', async () => {
  // The folder is a file: nothing can be written into it.
  const file = join(scratch, 'not-a-folder');
  writeFileSync(file, 'x');
  const storage = new FileStorage(file);
  const error = await expectStorageError(storage.put('blob', new Uint8Array(1)), [`FileStorage('${file}')`, "write blob 'blob'"], 'write into a file');
  assert.ok(error instanceof FreshetError);
  assert.deepEqual(error.details, { storage: `FileStorage('${file}')`, blob: 'blob' });
  assert.ok(error.cause, 'the cause is kept');
  await expectStorageError(storage.list(''), ['list blobs'], 'list a file');

  // A blob name that is a folder cannot be read.
  const dir = join(scratch, 'folder-blob');
  mkdirSync(join(dir, 'sub'), { recursive: true });
  await expectStorageError(new FileStorage(dir).get('sub'), ["read blob 'sub'"], 'read a folder');
  assert.deepEqual(await new FileStorage(dir).list(''), [], 'folders are not blobs');

  if (process.getuid?.() !== 0) {  // root may write anywhere
    const locked = join(scratch, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o500);
    await expectStorageError(new FileStorage(locked).put('x', new Uint8Array(1)), ['EACCES'], 'a read-only folder');
  }

  assert.throws(() => new FileStorage(''), { code: 'STORAGE_ERROR' });
  assert.throws(() => new FileStorage(undefined), { code: 'STORAGE_ERROR' });
});

test('MemoryStorage: errors name the storage and the blob', async () => {
  const error = await expectStorageError(new MemoryStorage().get('a/b'), ['MemoryStorage', "'a/b'", 'path separator'], 'a separator');
  assert.equal(error.message, "MemoryStorage: cannot read blob 'a/b': a blob name must not contain a path separator (/ or \\)");
});

test('the Node entry exports FileStorage and every storage and sink; index.js has no FileStorage', async () => {
  const node = await import('../../wasm-bindings/js/node.js');
  for (const name of ['FileStorage', 'MemoryStorage', 'IndexedDBStorage', 'KVStorage', 'IndexedDBSink', 'KVSink']) {
    assert.equal(typeof node[name], 'function', name);
  }
  const shared = await import('../../wasm-bindings/js/index.js');
  assert.equal(shared.FileStorage, undefined, 'browser and workerd entries do not see node:fs');
});

test('IndexedDBStorage without IndexedDB (Node) fails with STORAGE_ERROR, not a TypeError', async () => {
  const { IndexedDBStorage } = await import('../../wasm-bindings/js/storages/indexeddb_storage.js');
  await expectStorageError(new IndexedDBStorage('p').get('x'), ["IndexedDBStorage('p')", "read blob 'x'", 'no IndexedDB'], 'no IndexedDB');
});
