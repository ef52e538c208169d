// freshet/vue with real Vue 3 in happy-dom: the rendered list equals
// p.snapshot() after every step, refs (pipeline, view) reopen the live view,
// unmount and a stopped effect scope close it, errors are values.
import { container } from './dom.mjs';  // first: Vue's DOM renderer looks for a DOM

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Pipeline } from 'freshet';
import { useLiveQuery } from 'freshet/vue';
import { createApp, effectScope, h, nextTick, shallowRef } from 'vue';

import { ORDERS_SQL, bag, openStreams, random, seed, shown, until } from './support.mjs';

/** Mounts a component that lists `view` of `pipeline` (each may be a ref); returns the app, element and the refs. */
function mountList(pipeline, view, options) {
  const into = container();
  let query;
  const app = createApp({
    setup() {
      query = useLiveQuery(pipeline, view, options);
      return () => h('ul', { 'data-status': query.status.value },
        query.rows.value.map((row) => h('li', JSON.stringify(row))));
    },
  });
  app.mount(into);
  return { app, into, query };
}

/** Waits for `condition()`, then for Vue to render what changed. */
async function settle(condition) {
  await until(condition);
  await nextTick();
}

test('the rendered rows equal p.snapshot() after every step of a random run', async () => {
  const rng = random(seed('vue live query'));
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  p.insert('customers', [{ id: 1, region: 'north' }, { id: 2, region: 'south' }]);
  p.step();
  const { app, into, query } = mountList(p, 'by_region');
  assert.equal(query.status.value, 'loading');
  await settle(() => query.isReady.value);
  const present = [];
  for (let step = 0, next = 1; step < 40; ++step) {
    if (rng() < 0.3 && present.length > 0) {
      p.delete('orders', { id: present.splice(Math.floor(rng() * present.length), 1)[0] });
    } else {
      p.insert('orders', { id: next, customer: 1 + Math.floor(rng() * 2), amount: Math.round(rng() * 100) });
      present.push(next++);
    }
    const before = query.rows.value;
    p.step();
    await settle(() => query.rows.value !== before);
    assert.deepEqual(bag(shown(into)), bag(p.snapshot('by_region')), `step ${step}`);
    assert.ok(query.changes.value.inserts.length + query.changes.value.deletes.length > 0);
  }
  assert.equal(openStreams(p), 1);
  app.unmount();
  assert.equal(openStreams(p), 0, 'unmount closes the stream');
  p.close();
});

test('refs: a pipeline that arrives later, a view that changes; one stream at a time', async () => {
  const p = await Pipeline.create({ sql: `${ORDERS_SQL}
    CREATE MATERIALIZED VIEW totals AS SELECT COUNT(*) AS n FROM orders;` });
  p.insert('customers', { id: 1, region: 'west' });
  p.insert('orders', [{ id: 1, customer: 1, amount: 3 }, { id: 2, customer: 1, amount: 4 }]);
  const pipeline = shallowRef(null);
  const view = shallowRef('by_region');
  // The options follow the view (totals has no region): both change in one tick, one reopen.
  const { app, into, query } = mountList(pipeline, view, () => (view.value === 'by_region' ? { key: 'region' } : {}));
  await nextTick();
  assert.equal(query.status.value, 'loading');
  pipeline.value = p;
  await settle(() => query.isReady.value);
  assert.deepEqual(shown(into), [{ region: 'west', orders: 2, total: 7 }]);
  view.value = 'totals';
  await nextTick();
  assert.equal(query.status.value, 'loading', 'a new view starts from its snapshot');
  assert.deepEqual(query.rows.value, []);
  await settle(() => query.isReady.value);
  assert.deepEqual(shown(into), [{ n: 2 }]);
  assert.equal(openStreams(p), 1, 'the first view\'s stream closed');
  app.unmount();
  assert.equal(openStreams(p), 0);
  p.close();
});

test('an effect scope: stopping it closes the live view; outside any scope is an error', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  const scope = effectScope();
  const query = scope.run(() => useLiveQuery(p, 'by_region', { index: 'by_region_idx' }));
  await until(() => query.isReady.value);
  assert.equal(openStreams(p), 1);
  scope.stop();
  assert.equal(openStreams(p), 0);
  assert.throws(() => useLiveQuery(p, 'by_region'), { name: 'FreshetError', code: 'INVALID_ARGUMENT' });
  p.close();
});

test('errors are values: an unknown view, a pipeline closed under a mounted query', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  const view = shallowRef('no_such_view');
  const { app, query } = mountList(p, view);
  await settle(() => query.status.value === 'error');
  assert.equal(query.error.value.code, 'UNKNOWN_VIEW');
  view.value = 'by_region';
  await settle(() => query.isReady.value);
  assert.equal(query.error.value, null);
  p.close();
  await settle(() => query.status.value === 'error');
  assert.equal(query.error.value.code, 'CLOSED');
  app.unmount();
});
