// The JSON-ingest slot: orders that arrive as JSON text (a JSON array of
// {"insert": row} records, the default format of p.ingest, docs/js-api.md), fed to freshet
// three ways, each into a fresh paused pipeline and timed through the step:
//   parse + per-row  JSON.parse in JS, then one p.insert call per row
//   parse + one call JSON.parse in JS, then one p.insert of all the rows
//   JSON text        p.ingest(table, text): parsed inside wasm
// JSON.parse alone is the JS floor for the first two.

import { performance } from 'node:perf_hooks';
import { settle } from './engine.mjs';
import { loadFreshet, SQL } from './freshet_module.mjs';

async function timeInto(freshet, customers, feed) {
  const pipeline = await freshet.Pipeline.create({ sql: SQL });
  try {
    pipeline.pause();
    pipeline.insert('customers', customers);
    await settle(pipeline.step());
    const start = performance.now();
    feed(pipeline);
    const fed = performance.now();
    await settle(pipeline.step());
    return { ingestMs: fed - start, totalMs: performance.now() - start };
  } finally {
    pipeline.close();
  }
}

/** @returns {Promise<Array<{ way: string, ingestMs?: number, totalMs: number }>>} */
export async function runJsonIngest(customers, orders) {
  const freshet = await loadFreshet();
  const text = JSON.stringify(orders.map((row) => ({ insert: row })));
  const ways = [];

  const start = performance.now();
  JSON.parse(text);
  ways.push({ way: 'JSON.parse alone (JS floor)', totalMs: performance.now() - start });

  ways.push({
    way: 'JSON.parse + p.insert per row',
    ...(await timeInto(freshet, customers, (p) => {
      for (const record of JSON.parse(text)) p.insert('orders', [record.insert]);
    })),
  });
  ways.push({
    way: 'JSON.parse + one p.insert',
    ...(await timeInto(freshet, customers, (p) => p.insert('orders', JSON.parse(text).map((record) => record.insert)))),
  });
  ways.push({ way: "p.ingest('orders', jsonText)", ...(await timeInto(freshet, customers, (p) => p.ingest('orders', text))) });

  const megabytes = Buffer.byteLength(text) / 2 ** 20;
  for (const way of ways) {
    way.recordsPerSecond = orders.length / (way.totalMs / 1000);
    way.megabytesPerSecond = megabytes / (way.totalMs / 1000);
  }
  return { records: orders.length, megabytes, ways };
}
