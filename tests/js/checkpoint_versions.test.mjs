// Checkpoint format versions: a checkpoint written by an earlier build (the
// fixtures, our own bytes, written by fixtures/write_checkpoint_fixture.mjs)
// keeps resuming; one of a version the package does not read is refused with
// CHECKPOINT_VERSION — never skipped for an older checkpoint, never read as
// garbage — unless onIncompatibleCheckpoint is 'restart'.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { FileStorage, MemoryStorage, Pipeline } from 'freshet';
import { READABLE_CHECKPOINT_VERSIONS, manifestVersion } from '../../wasm-bindings/js/checkpoint_versions.js';
import { ORDERS_SQL, bag } from './support.mjs';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const NEWEST = 'checkpoint-00000000000000000001.manifest';
const scratch = [];
after(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A copy of fixture folder `name` in a temporary folder (tests must not change the fixture). */
function copyOf(name) {
  const dir = mkdtempSync(join(tmpdir(), 'freshet-versions-'));
  scratch.push(dir);
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

/** Sets the format version in a manifest's header (bytes 8..11, little-endian), as another build would have written it. */
function rewriteVersion(dir, manifest, version) {
  const bytes = readFileSync(join(dir, manifest));
  bytes.writeUInt32LE(version, 8);
  writeFileSync(join(dir, manifest), bytes);
}

test('the engine writes the newest version the package reads', async () => {
  const storage = new MemoryStorage();
  const p = await Pipeline.create({ sql: ORDERS_SQL, storage });
  p.insert('customers', { id: 1, region: 'north' });
  p.step();
  const { sequenceNumber } = await p.checkpoint();
  p.close();
  const manifest = await storage.get(`checkpoint-${String(sequenceNumber).padStart(20, '0')}.manifest`);
  assert.equal(manifestVersion(manifest), READABLE_CHECKPOINT_VERSIONS.at(-1));
});

// Formats 4-6 stored operators by position. Since shared arrangements a
// program with a join builds other operators (arrangements hold the sides
// its joins kept), so ORDERS_SQL's checkpoints of those formats no longer
// fit: refused clearly, with the way out. Format 7 stores them by id.
const BY_POSITION = [4, 5, 6];

test('every fixture of a readable version resumes, with the rows it held', async () => {
  const folders = readdirSync(FIXTURES).filter((name) => /^checkpoint-format-\d+$/.test(name));
  assert.ok(folders.includes('checkpoint-format-4'), 'the format package 0.1.0 writes');
  assert.ok(folders.includes('checkpoint-format-7'), 'the format this package writes');
  for (const folder of folders) {
    const version = Number(folder.split('-').at(-1));
    if (!READABLE_CHECKPOINT_VERSIONS.includes(version) || BY_POSITION.includes(version)) continue;
    const expected = JSON.parse(readFileSync(join(FIXTURES, folder, 'expected.json'), 'utf8'));
    const p = await Pipeline.create({ sql: ORDERS_SQL, storage: new FileStorage(copyOf(folder)) });
    assert.equal(p.stats().checkpoint.restoredFrom, 1, folder);
    assert.equal(p.stats().step, expected[1].step, folder);
    assert.deepEqual(p.snapshot('by_region'), expected[1].by_region, folder);
    // It carries on: new input on top of the restored state.
    await p.waitForCompletion(p.insert('orders', { id: 9, customer: 2, amount: 1 }));
    assert.deepEqual(bag(p.snapshot('by_region')), bag([...expected[1].by_region, { region: 'south', orders: 1, total: 1 }]), folder);
    p.close();
  }
});

test('a checkpoint by position of operators this engine no longer builds is refused with CHECKPOINT_VERSION and the way out', async () => {
  for (const version of BY_POSITION) {
    const dir = copyOf(`checkpoint-format-${version}`);
    await assert.rejects(Pipeline.create({ sql: ORDERS_SQL, storage: new FileStorage(dir) }), {
      code: 'CHECKPOINT_VERSION',
      message: /older format that stores operators by position.*operators changed.*onIncompatibleCheckpoint: 'restart'/,
    });
    const p = await Pipeline.create({ sql: ORDERS_SQL, storage: new FileStorage(dir), onIncompatibleCheckpoint: 'restart' });
    assert.equal(p.stats().step, 0);
    p.close();
  }
});

test('a checkpoint of a future version is refused with CHECKPOINT_VERSION, not skipped for the older one beside it', async () => {
  const dir = copyOf('checkpoint-format-4');
  rewriteVersion(dir, NEWEST, 99);
  await assert.rejects(Pipeline.create({ sql: ORDERS_SQL, storage: new FileStorage(dir) }), (error) => {
    assert.equal(error.code, 'CHECKPOINT_VERSION');
    assert.match(error.message, /checkpoint 1 is in format version 99.*reads formats 4, 5, 6, 7.*onIncompatibleCheckpoint: 'restart'/);
    assert.deepEqual({ ...error.details }, { sequenceNumber: 1, version: 99, readableVersions: [4, 5, 6, 7] });
    return true;
  });
});

test('a checkpoint of an older, unread version is refused the same way, saying so', async () => {
  const dir = copyOf('checkpoint-format-4');
  rewriteVersion(dir, NEWEST, 3);
  await assert.rejects(Pipeline.create({ sql: ORDERS_SQL, storage: new FileStorage(dir) }),
                       { code: 'CHECKPOINT_VERSION', message: /format version 3.*older freshet/ });
});

test("onIncompatibleCheckpoint: 'restart' starts afresh, and its checkpoints win from then on", async () => {
  const dir = copyOf('checkpoint-format-4');
  rewriteVersion(dir, NEWEST, 99);
  await assert.rejects(Pipeline.create({ sql: ORDERS_SQL, storage: new FileStorage(dir), onIncompatibleCheckpoint: 'sometimes' }),
                       { code: 'INVALID_ARGUMENT', message: /onIncompatibleCheckpoint/ });
  const p = await Pipeline.create({ sql: ORDERS_SQL, storage: new FileStorage(dir), onIncompatibleCheckpoint: 'restart' });
  assert.equal(p.stats().checkpoint.restoredFrom, null);
  assert.equal(p.stats().step, 0);
  assert.deepEqual(p.snapshot('by_region'), []);
  p.insert('customers', { id: 1, region: 'west' });
  await p.waitForCompletion(p.insert('orders', { id: 1, customer: 1, amount: 3 }));
  const written = await p.checkpoint();
  assert.ok(written.sequenceNumber > 1, 'numbered after the incompatible one');
  p.close();
  const again = await Pipeline.create({ sql: ORDERS_SQL, storage: new FileStorage(dir) });
  assert.equal(again.stats().checkpoint.restoredFrom, written.sequenceNumber);
  assert.deepEqual(again.snapshot('by_region'), [{ region: 'west', orders: 1, total: 3 }]);
  again.close();
});
