#!/usr/bin/env node
// The 20-view dashboard's p50 ratio (issue 21: one pipeline ÷ one pipeline
// per view ≤ 0.5×) measured so that this machine's load hits both sides
// alike: freshet-one and freshet-each (dashboard20_freshet.mjs) in ONE Node
// process on the realm's one wasm instance, each change applied to both in
// turns (the order alternating), each timed from the write until every
// view's delta is in its mirror. dashboard20.mjs runs the engines one after
// the other in processes of their own and checks every view against DuckDB;
// under a varying load its p50 ratio swings by ±0.2 from run to run.
//
//   FRESHET_MODULE=wasm-bindings/js/node.js node bench/js/dashboard20_interleaved.mjs [--orders 200000] [--changes 1000]

import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { create } from './dashboard20_freshet.mjs';
import { makeWorkload } from './workload.mjs';

const { values: args } = parseArgs({ options: { orders: { type: 'string', default: '200000' }, changes: { type: 'string', default: '1000' } } });
const workload = makeWorkload({ orders: Number(args.orders), changes: Number(args.changes) });
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
console.log(`dashboard, interleaved: ${args.orders} orders, ${args.changes} changes; load average ${load()}`);
const sides = [];
for (const mode of ['one', 'each']) {
  const engine = await create({ mode });
  await engine.load(workload.customers, workload.orders);
  sides.push({ mode, engine, wall: [], cpu: [] });
}
let turn = 0;
for (const change of workload.changes) {
  for (const side of turn++ % 2 ? sides : [...sides].reverse()) {
    const cpu = process.cpuUsage();
    const begin = process.hrtime.bigint();
    await side.engine.apply(change);
    side.wall.push(Number(process.hrtime.bigint() - begin) / 1000);
    const used = process.cpuUsage(cpu);
    side.cpu.push(used.user + used.system);  // the process's CPU time: V8's helper threads too
    side.engine.settle();  // untimed: the mirrors fold in their deltas (dashboard20_mirror.mjs)
    await new Promise((resolve) => setImmediate(resolve));
  }
}
const p50 = (values) => Float64Array.from(values).sort()[values.length >> 1];
const [one, each] = sides;
for (const side of sides) console.log(`freshet-${side.mode.padEnd(5)} p50 ${p50(side.wall).toFixed(1).padStart(7)} µs wall, ${p50(side.cpu).toFixed(0).padStart(5)} µs CPU`);
console.log(`one ÷ each, p50: ${(p50(one.wall) / p50(each.wall)).toFixed(3)}x wall, ${(p50(one.cpu) / p50(each.cpu)).toFixed(3)}x CPU (target <= 0.5x); load average ${load()}`);
for (const side of sides) await side.engine.close();
