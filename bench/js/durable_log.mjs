// What durability: 'log' costs per ingest, against the same pipeline
// without the log in the same run: FileStorage (a file written and fsynced
// per log write) and MemoryStorage (the log's own work, no disk). One
// client awaiting each ingest (the worst case: no two ingests share a
// write), then bursts of 100 ingests in one turn (they share one write).
// IndexedDBStorage is measured in Chromium by e2e/durable_log.spec.mjs.
//   FRESHET_MODULE=wasm-bindings/js/node.js node bench/js/durable_log.mjs [--ingests 500]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { FileStorage, MemoryStorage, Pipeline } = await import(process.env.FRESHET_MODULE ?? 'freshet');

const args = Object.fromEntries(process.argv.slice(2).join(' ').split('--').filter(Boolean).map((part) => part.trim().split(/\s+/)));
const INGESTS = Number(args.ingests ?? 500);
const SQL = `CREATE TABLE t (id BIGINT NOT NULL, v BIGINT);
CREATE MATERIALIZED VIEW totals AS SELECT v, COUNT(*) AS n FROM t GROUP BY v;`;

/** Microseconds per ingest: awaited one by one, then in bursts of 100. */
async function measure(options) {
  const p = await Pipeline.create({ sql: SQL, ...options });
  let id = 0;
  const row = () => [{ id: id++, v: id % 10 }];
  for (let i = 0; i < 50; ++i) await p.insert('t', row());  // warm-up
  let started = performance.now();
  for (let i = 0; i < INGESTS; ++i) await p.waitForCompletion(await p.insert('t', row()));
  const single = ((performance.now() - started) * 1000) / INGESTS;
  started = performance.now();
  for (let burst = 0; burst < INGESTS / 100; ++burst) {
    const tokens = await Promise.all(Array.from({ length: 100 }, () => p.insert('t', row())));
    await p.waitForCompletion(tokens.at(-1));
  }
  const burst = ((performance.now() - started) * 1000) / INGESTS;
  await p.close({ checkpoint: false });
  return { single, burst };
}

const dir = mkdtempSync(join(tmpdir(), 'freshet-durable-log-bench-'));
try {
  const rows = [
    ['no storage, no log (baseline)', await measure({})],
    ['MemoryStorage, durability: log', await measure({ storage: new MemoryStorage(), durability: 'log' })],
    ['FileStorage, no log', await measure({ storage: new FileStorage(join(dir, 'plain')) })],
    ['FileStorage, durability: log', await measure({ storage: new FileStorage(join(dir, 'log')), durability: 'log' })],
  ];
  console.log(`per ingest of one row until complete, ${INGESTS} ingests (µs): awaited one by one | bursts of 100`);
  for (const [what, { single, burst }] of rows) console.log(`  ${what.padEnd(36)} ${single.toFixed(0).padStart(8)} | ${burst.toFixed(1).padStart(8)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
