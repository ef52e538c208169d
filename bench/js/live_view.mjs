// The live view's per-step cost (issue 18): one row of a view of 1k, 10k and
// 100k rows changes per step, and the change is timed from the write to the
// moment the result is in JS hands, against a baseline taken in the same
// run (ratios; this machine's wall clock moves by 2x between spells):
//   egress        the bare egress iterator: insert, step(), await next() —
//                 the baseline
//   live          p.live(view): insert, step(), the listener runs (listen())
//                 without reading `current`: the work should be O(changed rows)
//   live+current  the same, the listener reads `current` (a new array of the
//                 view's row references: O(view))
//   key+current   p.live(view, { key: 'id' }), reading `current`
// Each configuration has a pipeline of its own, and they take turns in
// blocks of 100 changes so that drift hits all alike; a full GC (untimed)
// before each block leaves every block its own garbage to collect: the
// 100k-row arrays `current` allocates would otherwise trigger collections
// in the block that follows.
//
//   FRESHET_MODULE=wasm-bindings/js/node.js node bench/js/live_view.mjs [--sizes 1000,10000,100000] [--changes 2000]

import { parseArgs } from 'node:util';
import { runInNewContext } from 'node:vm';
import { loadFreshet } from './freshet_module.mjs';
import { percentiles } from './stats.mjs';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    changes: { type: 'string', default: '2000' },
  },
});
const sizes = args.sizes.split(',').map(Number);
const changes = Number(args.changes);
const { Pipeline } = await loadFreshet();
const gc = runInNewContext('gc');   // stats.mjs set --expose-gc
const BLOCK = 100;

const SQL = `CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, v BIGINT);
CREATE MATERIALIZED VIEW all_items AS SELECT id, v FROM items;`;

/** A configuration: how one change's result reaches JS. */
const CONFIGS = {
  egress: async (p) => {
    const stream = p.egress('all_items', { sendSnapshot: true });
    await stream.next();   // the snapshot
    return { change: async () => (await stream.next()).value.inserts.length, close: () => stream.close() };
  },
  live: (p) => liveConfig(p, {}, false),
  'live+current': (p) => liveConfig(p, {}, true),
  'key+current': (p) => liveConfig(p, { key: 'id' }, true),
};

async function liveConfig(p, options, readCurrent) {
  const live = p.live('all_items', options);
  let notified = null;
  let seen = 0;
  live.listen(() => {
    seen = readCurrent ? live.current.length : live.changes.inserts.length;
    notified();
  });
  await new Promise((resolve) => (notified = resolve));   // ready
  return {
    change: () => new Promise((resolve) => (notified = () => resolve(seen))),
    close: () => live.close(),
  };
}

async function measure(size) {
  const runs = [];
  for (const [name, make] of Object.entries(CONFIGS)) {
    const p = await Pipeline.create({ sql: SQL });
    p.pause();
    p.insert('items', Array.from({ length: size }, (_, id) => ({ id, v: 0 })));
    p.step();
    runs.push({ name, p, run: await make(p), nanos: [] });
  }
  for (let block = 0; block < changes; block += BLOCK) {
    for (const run of runs) {
      gc();
      for (let i = block; i < Math.min(block + BLOCK, changes); ++i) {
        const begin = process.hrtime.bigint();
        run.p.insert('items', [{ id: (i * 7919) % size, v: i + 1 }]);   // an upsert: one row changes
        run.p.step();
        await run.run.change();
        run.nanos.push(Number(process.hrtime.bigint() - begin));
      }
    }
  }
  for (const run of runs) {
    run.run.close();
    run.p.close();
  }
  return runs.map(({ name, nanos }) => ({ name, ...percentiles(nanos) }));
}

const results = {};
for (const size of sizes) results[size] = await measure(size);

const fmt = (us) => us.toFixed(2);
console.log(`per change p50 / p99 in µs (${changes} changes per configuration, one row of the view changes per step)`);
console.log(['view rows', ...Object.keys(CONFIGS)].join(' | '));
for (const size of sizes) {
  const base = results[size].find((r) => r.name === 'egress');
  const cells = results[size].map((r) => `${fmt(r.p50Us)} / ${fmt(r.p99Us)}${r === base ? '' : ` (${(r.p50Us / base.p50Us).toFixed(2)}x)`}`);
  console.log([size.toLocaleString('en'), ...cells].join(' | '));
}
