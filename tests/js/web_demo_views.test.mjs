// The web demo's page-side view state (web-demo/page/view_state.js) and the
// large-orders table's row selection (displayOrder in rows_table.js): pure
// logic, checked here in Node; the browser test checks the screen.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { displayOrder } from '../../web-demo/page/rows_table.js';
import { ViewState } from '../../web-demo/page/view_state.js';

const chunk = (fields) => ({ snapshot: false, snapshotComplete: false, inserts: [], deletes: [], ...fields });
const sorted = (rows) => rows.map((row) => JSON.stringify(row)).sort();

test('rows: a snapshot, then deltas; a row may appear several times', () => {
  const view = new ViewState();
  view.apply(chunk({ snapshot: true, snapshotComplete: true, step: 1, inserts: [{ r: 'a', n: 1 }, { r: 'a', n: 1 }, { r: 'b', n: 2 }] }));
  assert.equal(view.ready, true);
  assert.equal(view.size, 3);
  view.apply(chunk({ step: 2, deletes: [{ r: 'a', n: 1 }, { r: 'b', n: 2 }], inserts: [{ r: 'b', n: 3 }] }));
  assert.deepEqual(sorted(view.rows()), sorted([{ r: 'a', n: 1 }, { r: 'b', n: 3 }]));
  assert.deepEqual(view.chunks, { snapshot: 1, delta: 1 });
  assert.equal(view.step, 2);
});

test('keyed: upserts replace by key, deletes remove by key', () => {
  const view = new ViewState();
  view.apply(chunk({ snapshot: true, snapshotComplete: true, upserts: [{ key: { id: 1 }, row: { id: 1, v: 'x' } }, { key: { id: 2 }, row: { id: 2, v: 'y' } }] }));
  view.apply(chunk({ upserts: [{ key: { id: 1 }, row: { id: 1, v: 'z' } }], deletes: [{ key: { id: 2 } }] }));
  assert.deepEqual(view.rows(), [{ id: 1, v: 'z' }]);
});

test('a snapshot over several chunks replaces the state once complete; BigInt keys work', () => {
  const view = new ViewState();
  view.apply(chunk({ snapshot: true, snapshotComplete: true, inserts: [{ k: 'old' }] }));
  view.apply(chunk({ snapshot: true, inserts: [{ k: 1n }] }));
  view.apply(chunk({ snapshot: true, snapshotComplete: true, inserts: [{ k: 'two' }] }));
  assert.deepEqual(sorted(view.rows().map((row) => ({ k: String(row.k) }))), sorted([{ k: '1' }, { k: 'two' }]));
  assert.equal(view.chunks.snapshot, 3);
});

test('displayOrder picks the same rows as sort and slice', () => {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let round = 0; round < 50; ++round) {
    const rows = Array.from({ length: Math.floor(random() * 200) }, (_, i) => ({ id: Math.floor(random() * 1000), i }));
    for (const limit of [0, 1, 5, 40, 500]) {
      const expected = [...rows].sort((a, b) => b.id - a.id).slice(0, limit).map((row) => row.id);
      assert.deepEqual(displayOrder(rows, 'id', limit).map((row) => row.id), expected);
    }
  }
  assert.deepEqual(displayOrder([{ a: 2, b: 1 }, { a: 1, b: 2 }, { a: 1, b: 1 }]), [{ a: 1, b: 1 }, { a: 1, b: 2 }, { a: 2, b: 1 }]);
});
