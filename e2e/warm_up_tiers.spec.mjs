// warmUp() in Chromium, whose V8 has a middle tier (Maglev) before TurboFan:
// after it, an application's first big load and its next 20,000 single-row
// changes throw away none of the package's optimized code and make V8
// compile none of the package's functions with TurboFan (work that, on a
// 2-core machine, took the core the changes needed: bench/web/README.md).
// Read from V8's own log (--log-code --log-deopt) of a browser of its own.
// Checked to fail with the engine loader's detached buffer without views
// (a deopt of ~25 functions at the wasm memory's first growth), without
// the warm-up's light steps (~10 TurboFan compiles during the changes),
// and with Pipeline's #ingestNumber in one long method (it alone compiled
// during the changes).
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { chromium, expect, test } from '@playwright/test';

import { baseURL, launchOptions, runDir } from './chromium.mjs';

const SQL = `CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT, amount DOUBLE);
CREATE MATERIALIZED VIEW by_customer AS SELECT customer, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY customer;`;
const LOAD_ROWS = 200_000;  // the wasm memory grows (the warm-up's peak fits in its first 16 MiB)
const CHANGES = 20_000;

/** V8's log of the page's isolate: the one that ran the markers. */
function pageLog(dir) {
  for (const file of readdirSync(dir)) {
    const text = readFileSync(join(dir, file), 'latin1');
    if (text.includes('__freshet_marker_load')) return text.split('\n');
  }
  throw new Error(`no V8 log in ${dir} has the page's markers`);
}

test('after warmUp(), a load that grows the wasm memory and 20,000 changes deoptimize none of the package\'s code and compile none of it with TurboFan', async () => {
  test.setTimeout(90_000);
  const logDir = join(runDir, 'v8-log-warm-up');
  rmSync(logDir, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  const browser = await chromium.launch({
    ...launchOptions,
    args: [...launchOptions.args, `--js-flags=--log-code --log-deopt --logfile=${join(logDir, 'v8.log')}`],
  });
  let result;
  try {
    const page = await browser.newPage({ baseURL });
    await page.goto('/e2e/page/index.html');
    await page.waitForFunction(() => window.t !== undefined);
    result = await page.evaluate(async ({ sql, loadRows, changes }) => {
      // A function named for the log, compiled (and so logged) when called.
      const marker = (name) => (0, eval)(`(function __freshet_marker_${name}() {})`)();
      await t.freshet.warmUp();
      const p = await t.freshet.Pipeline.create({ sql });
      p.pause();
      const stream = p.egress('by_customer', { sendSnapshot: false })[Symbol.asyncIterator]();
      const before = p.stats().wasmMemoryBytes;
      marker('load');
      p.insert('orders', Array.from({ length: loadRows }, (_, id) => ({ id, customer: id % 1000, amount: id / 4 })));
      p.step();
      await stream.next();
      const grown = p.stats().wasmMemoryBytes > before;
      marker('changes');
      for (let i = 0; i < changes; ++i) {
        const id = (i * 7919) % (loadRows * 2);  // an upsert, or an insert of a new id
        p.insert('orders', [{ id, customer: id % 1000, amount: 1e6 + i }]);  // a new amount: every step changes the view
        p.step();
        await stream.next();
      }
      marker('end');
      await p.close();
      return { grown };
    }, { sql: SQL, loadRows: LOAD_ROWS, changes: CHANGES });
  } finally {
    await browser.close();  // V8 writes the rest of its log as the renderer exits
  }
  expect(result.grown).toBe(true);

  const lines = pageLog(logDir);
  const at = (name) => lines.findIndex((line) => line.startsWith('code-creation,') && line.includes(`__freshet_marker_${name} `));
  const [load, changes, end] = ['load', 'changes', 'end'].map(at);
  expect(load).toBeGreaterThan(0);
  expect(changes).toBeGreaterThan(load);
  expect(end).toBeGreaterThan(changes);
  // The package's code but the warm-up's own, which has run for the last time.
  const ofPackage = (line) => line.includes('/wasm-bindings/js/') && !line.includes('/wasm-bindings/js/warm_up.js');
  // code-deopt,time,size,code,inlining id,offset,kind,<url:line:col>,reason
  const deopts = lines.slice(load, end).filter((line) => line.startsWith('code-deopt,') && ofPackage(line))
    .map((line) => line.split(',').slice(6).join(','));
  // code-creation,JS,tag,time,address,size,name url:line:col,sfi,tier ('*' TurboFan, '+' Maglev)
  const turbofan = lines.slice(changes, end).filter((line) => line.startsWith('code-creation,JS,') && ofPackage(line) && line.split(',').at(-1).includes('*'))
    .map((line) => line.split(',')[6]);
  expect(deopts, 'the package\'s code V8 threw away during the load and the changes').toEqual([]);
  expect(turbofan, 'the package\'s functions V8 compiled with TurboFan during the changes').toEqual([]);
});
