// freshet/react with real React 19 and react-dom in happy-dom: the screen
// equals p.snapshot() after every step of a random run, one render per step,
// StrictMode's double mount leaves one egress stream and unmount closes it,
// FreshetProvider/usePipeline, reopening on a new view, errors as values.
import { container } from './dom.mjs';  // first: react-dom looks for a DOM when loaded

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Pipeline } from 'freshet';
import { FreshetProvider, useLiveQuery, usePipeline } from 'freshet/react';
import { StrictMode, act, createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';

import { ORDERS_SQL, bag, openStreams, random, seed, shown, until } from './support.mjs';

/** Renders `element` into a fresh root; returns the root and its element. */
async function mount(element) {
  const into = container();
  const root = createRoot(into);
  await act(async () => root.render(element));
  return { root, into };
}

/** Lets the live view's async iterator deliver, inside act(), until `condition()`. */
async function settle(condition) {
  await act(async () => until(condition));
}

/** A component listing a view's rows; records each result it rendered. */
function RowList({ pipeline, view, options, seen, views }) {
  const result = useLiveQuery(pipeline, view, options);
  seen?.push(result);
  views?.push(view);
  return h('ul', { 'data-status': result.status }, result.rows.map((row, i) => h('li', { key: i }, JSON.stringify(row))));
}

test('rows on screen equal p.snapshot() after every step of a random run, one render per changed step', async () => {
  const rng = random(seed('react live query'));
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  p.insert('customers', [{ id: 1, region: 'north' }, { id: 2, region: 'south' }, { id: 3, region: 'east' }]);
  p.step();
  const seen = [];
  const { root, into } = await mount(h(RowList, { pipeline: p, view: 'by_region', seen }));
  await settle(() => seen.at(-1).status === 'ready');
  assert.deepEqual(bag(shown(into)), bag(p.snapshot('by_region')));
  const present = [];
  for (let step = 0, next = 1; step < 60; ++step) {
    // Every step changes the view: a new order, or one deleted (each changes a count).
    if (rng() < 0.3 && present.length > 0) {
      p.delete('orders', { id: present.splice(Math.floor(rng() * present.length), 1)[0] });
    } else {
      p.insert('orders', { id: next, customer: 1 + Math.floor(rng() * 3), amount: Math.round(rng() * 1000) / 10 });
      present.push(next++);
    }
    const before = seen.length;
    const version = seen.at(-1);
    p.step();
    await settle(() => seen.at(-1) !== version);
    assert.equal(seen.length - before, 1, `step ${step}: one render for one step`);
    assert.deepEqual(bag(shown(into)), bag(p.snapshot('by_region')), `step ${step}`);
    assert.equal(seen.at(-1).changes.inserts.length + seen.at(-1).changes.deletes.length > 0, true);
  }
  await act(async () => root.unmount());
  p.close();
});

test('a row that did not change keeps its identity from one render to the next', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  p.insert('customers', [{ id: 1, region: 'north' }, { id: 2, region: 'south' }]);
  p.insert('orders', [{ id: 1, customer: 1, amount: 5 }, { id: 2, customer: 2, amount: 7 }]);
  p.step();
  const seen = [];
  const { root } = await mount(h(RowList, { pipeline: p, view: 'by_region', options: { key: 'region' }, seen }));
  await settle(() => seen.at(-1).isReady);
  const before = seen.at(-1).rows;
  p.insert('orders', { id: 3, customer: 1, amount: 1 });
  p.step();
  await settle(() => seen.at(-1).rows !== before);
  const after = seen.at(-1).rows;
  const south = (rows) => rows.find((row) => row.region === 'south');
  const north = (rows) => rows.find((row) => row.region === 'north');
  assert.equal(south(after), south(before), 'the unchanged row is the same object');
  assert.notEqual(north(after), north(before));
  assert.equal(north(after).orders, 2);
  assert.ok(Object.isFrozen(after) && Object.isFrozen(south(after)));
  await act(async () => root.unmount());
  p.close();
});

test('StrictMode double mount leaves one egress stream; unmount closes it', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  assert.equal(openStreams(p), 0);
  let opened = 0;
  const live = p.live.bind(p);
  p.live = (...args) => (++opened, live(...args));
  const seen = [];
  const tree = h(StrictMode, null, h(RowList, { pipeline: p, view: 'by_region', seen }),
    h(RowList, { pipeline: p, view: 'by_region', options: { index: 'by_region_idx' } }));
  const { root } = await mount(tree);
  await settle(() => seen.at(-1).isReady);
  assert.equal(opened, 4, 'StrictMode mounted each query twice');
  assert.equal(openStreams(p), 2, 'one stream per mounted query, not two');
  // Re-rendering with new (equal) options objects does not reopen anything.
  await act(async () => root.render(tree));
  assert.equal(openStreams(p), 2);
  await act(async () => root.unmount());
  assert.equal(openStreams(p), 0, 'unmount closes the streams');
  p.close();
});

test('rendering opens nothing: a render that is never committed (server rendering) shows loading, no stream', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  const html = renderToString(h(RowList, { pipeline: p, view: 'by_region' }));
  assert.equal(html, '<ul data-status="loading"></ul>');
  assert.equal(openStreams(p), 0);
  p.close();
});

test('FreshetProvider: loading while the pipeline is null, then its views; usePipeline returns it', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.insert('customers', { id: 1, region: 'west' });
  p.insert('orders', { id: 1, customer: 1, amount: 3 });
  const seen = [];
  let found;
  function Probe() {
    found = usePipeline();
    return null;
  }
  const app = (pipeline) => h(FreshetProvider, { pipeline }, h(Probe), h(RowList, { pipeline: null, view: 'by_region', seen }));
  const { root, into } = await mount(app(null));
  assert.equal(found, null);
  assert.equal(seen.at(-1).status, 'loading');
  assert.deepEqual(seen.at(-1).rows, []);
  await act(async () => root.render(app(p)));
  assert.equal(found, p);
  await settle(() => seen.at(-1).isReady);
  assert.deepEqual(shown(into), [{ region: 'west', orders: 1, total: 3 }]);
  await act(async () => root.render(app(null)));
  assert.equal(seen.at(-1).status, 'loading', 'no pipeline: loading again');
  assert.equal(openStreams(p), 0, 'the old pipeline\'s stream closed');
  await act(async () => root.unmount());
  p.close();
});

test('a new view reopens the live view: the old stream closes and the old rows are not shown as the new view', async () => {
  const p = await Pipeline.create({ sql: `${ORDERS_SQL}
    CREATE MATERIALIZED VIEW totals AS SELECT COUNT(*) AS n FROM orders;` });
  p.insert('customers', { id: 1, region: 'west' });
  p.insert('orders', [{ id: 1, customer: 1, amount: 3 }, { id: 2, customer: 1, amount: 4 }]);
  const seen = [];
  const views = [];
  const { root, into } = await mount(h(RowList, { pipeline: p, view: 'by_region', seen, views }));
  await settle(() => seen.at(-1).isReady);
  await act(async () => root.render(h(RowList, { pipeline: p, view: 'totals', seen, views })));
  await settle(() => seen.at(-1).isReady);
  assert.deepEqual(shown(into), [{ n: 2 }]);
  // Every render of 'totals' shows its rows or none (loading), never by_region's.
  const ofTotals = seen.filter((_, i) => views[i] === 'totals');
  assert.ok(ofTotals.length >= 2);
  assert.equal(ofTotals[0].status, 'loading');
  assert.ok(ofTotals.every((result) => result.rows.every((row) => 'n' in row)));
  assert.equal(openStreams(p), 1);
  await act(async () => root.unmount());
  p.close();
});

test('errors are values: an unknown view, and a pipeline closed under a mounted query', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  const seen = [];
  const { root } = await mount(h(RowList, { pipeline: p, view: 'no_such_view', seen }));
  await settle(() => seen.at(-1).status === 'error');
  assert.equal(seen.at(-1).error.name, 'FreshetError');
  assert.equal(seen.at(-1).error.code, 'UNKNOWN_VIEW');
  assert.equal(seen.at(-1).isReady, false);
  await act(async () => root.render(h(RowList, { pipeline: p, view: 'by_region', seen })));
  await settle(() => seen.at(-1).isReady);
  p.close();
  await settle(() => seen.at(-1).status === 'error');
  assert.equal(seen.at(-1).error.code, 'CLOSED');
  await act(async () => root.unmount());
});
