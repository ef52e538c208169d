// @tanstack/db-ivm 0.2.0 (differential dataflow, the engine under TanStack
// DB's live queries), used through its public operators:
//
//   orders ── map(by customer) ──┐
//                                join(inner) ── groupBy(region; count, sum) ── output
//   customers ─ map(by id) ──────┘
//
// groupBy is db-ivm's own grouped aggregate (a reduce underneath); the delta
// is what `output` hands us after graph.run().

import { D2, MultiSet, map, join, groupBy, groupByOperators, output } from '@tanstack/db-ivm';
import { LOAD_CHUNK } from './workload.mjs';
import { DeltaMirror } from './engine.mjs';

const { count, sum } = groupByOperators;

export async function create() {
  const graph = new D2();
  const orders = graph.newInput(); // rows { id, customer, amount }
  const customers = graph.newInput(); // rows { id, region }
  let delta = []; // the messages output hands over during one graph.run()
  const mirror = new DeltaMirror();

  const ordersByCustomer = orders.pipe(map((o) => [o.customer, o]));
  const customersById = customers.pipe(map((c) => [c.id, c.region]));
  ordersByCustomer.pipe(
    join(customersById, 'inner'),
    map(([, [order, region]]) => ({ region, amount: order.amount })),
    groupBy((row) => ({ region: row.region }), { orders: count(), total: sum((row) => row.amount) }),
    output((message) => {
      for (const entry of message.getInner()) delta.push(entry);
    }),
  );
  graph.finalize();

  // Runs the graph and takes the view's delta: [[key, { region, orders, total }], multiplicity] entries.
  function run() {
    delta = [];
    graph.run();
    const deletes = [];
    const inserts = [];
    for (const [[, row], multiplicity] of delta) (multiplicity < 0 ? deletes : inserts).push(row);
    mirror.apply(deletes, inserts);
    return delta;
  }

  return {
    name: '@tanstack/db-ivm 0.2.0',
    load(customerRows, orderRows) {
      customers.sendData(new MultiSet(customerRows.map((c) => [c, 1])));
      run();
      for (let start = 0; start < orderRows.length; start += LOAD_CHUNK) {
        orders.sendData(new MultiSet(orderRows.slice(start, start + LOAD_CHUNK).map((o) => [o, 1])));
        run();
      }
    },
    // An update retracts the old row and asserts the new one, as db-ivm
    // models every change; rows are compared by value, so `old` is a copy.
    apply(change) {
      const entries = [[change.order, 1]];
      if (change.kind === 'update') entries.unshift([change.old, -1]);
      orders.sendData(new MultiSet(entries));
      return run();
    },
    result() {
      return new Map([...mirror.view].map(([k, v]) => [k, { ...v }]));
    },
  };
}
