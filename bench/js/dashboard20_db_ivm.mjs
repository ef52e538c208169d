// @tanstack/db-ivm 0.2.0 on the 20-view dashboard: the 20 pipelines of
// dashboard20_program.mjs written with its operators, in one D2 graph fed by
// two inputs (orders, customers). Each pipeline is self-contained, as a
// live query compiles to one: pipelines that join build their own join (db-ivm
// has no planner to share it). graph.run() is synchronous: when it returns,
// every output has handed over its delta, which feeds a mirror per view.

import { D2, MultiSet, map, filter, join, distinct, groupBy, groupByOperators, orderByWithFractionalIndex, groupedOrderByWithFractionalIndex, output } from '@tanstack/db-ivm';
import { RowMirror } from './dashboard20_mirror.mjs';
import { LOAD_CHUNK } from './workload.mjs';

const { count, sum, avg, min, max } = groupByOperators;
const size = (amount) => (amount < 10 ? 'small' : amount < 100 ? 'medium' : amount < 500 ? 'large' : 'huge');
const byAmountDesc = (a, b) => b.amount - a.amount || a.id - b.id;

/** The 20 pipelines: view name -> (orders, customers) -> a stream of the view's rows (keyed or not). */
const PIPELINES = {
  totals: (o) => o.pipe(groupBy(() => ({}), { orders: count(), revenue: sum((r) => r.amount), avg_amount: avg((r) => r.amount) })),
  revenue_by_region: (o, c) => joined(o, c).pipe(groupBy((r) => ({ region: r.region }), { orders: count(), revenue: sum((r) => r.amount) })),
  amount_stats_by_region: (o, c) =>
    joined(o, c).pipe(groupBy((r) => ({ region: r.region }), { avg_amount: avg((r) => r.amount), smallest: min((r) => r.amount), largest: max((r) => r.amount) })),
  big_orders_by_region: (o, c) =>
    joined(o.pipe(filter((r) => r.amount > 900)), c).pipe(groupBy((r) => ({ region: r.region }), { orders: count(), revenue: sum((r) => r.amount) })),
  orders_by_size: (o) => o.pipe(groupBy((r) => ({ size: size(r.amount) }), { orders: count(), revenue: sum((r) => r.amount) })),
  region_size_grid: (o, c) => joined(o, c).pipe(groupBy((r) => ({ region: r.region, size: size(r.amount) }), { orders: count() })),
  revenue_by_customer: (o) => o.pipe(groupBy((r) => ({ customer: r.customer }), { orders: count(), revenue: sum((r) => r.amount) })),
  customer_summary: (o, c) => joined(o, c).pipe(groupBy((r) => ({ id: r.customer, region: r.region }), { orders: count(), revenue: sum((r) => r.amount) })),
  largest_order_by_customer: (o) => o.pipe(groupBy((r) => ({ customer: r.customer }), { largest: max((r) => r.amount) })),
  vip_customers: (o) =>
    o.pipe(
      groupBy((r) => ({ customer: r.customer }), { revenue: sum((r) => r.amount) }),
      filter(([, r]) => r.revenue > 110000),
    ),
  customers_by_order_count: (o) =>
    o.pipe(
      groupBy((r) => ({ customer: r.customer }), { orders: count() }),
      map(([, r]) => r),
      groupBy((r) => ({ orders: r.orders }), { customers: count() }),
    ),
  big_buyers_by_region: (o, c) =>
    joined(o.pipe(filter((r) => r.amount > 990)), c).pipe(
      map((r) => [`${r.region}|${r.customer}`, { region: r.region, customer: r.customer }]),
      distinct(),
      map(([, r]) => r),
      groupBy((r) => ({ region: r.region }), { customers: count() }),
    ),
  top10_orders: (o) => o.pipe(map((r) => [r.id, r]), orderByWithFractionalIndex((r) => r, { comparator: byAmountDesc, limit: 10 })),
  latest_orders: (o) => o.pipe(map((r) => [r.id, r]), orderByWithFractionalIndex((r) => r, { comparator: (a, b) => b.id - a.id, limit: 10 })),
  top10_customers: (o) =>
    o.pipe(
      groupBy((r) => ({ customer: r.customer }), { revenue: sum((r) => r.amount) }),
      orderByWithFractionalIndex((r) => r, { comparator: (a, b) => b.revenue - a.revenue || a.customer - b.customer, limit: 10 }),
    ),
  top3_by_region: (o, c) =>
    joined(o, c).pipe(
      map((r) => [r.id, { id: r.id, region: r.region, amount: r.amount }]),
      groupedOrderByWithFractionalIndex((r) => r, { comparator: byAmountDesc, limit: 3, groupKeyFn: (_, r) => r.region }),
    ),
  big_orders: (o) => o.pipe(filter((r) => r.amount >= 990)),
  region3_big_orders: (o, c) =>
    joined(o.pipe(filter((r) => r.amount > 950)), c).pipe(
      filter((r) => r.region === 'region-3'),
      map((r) => ({ id: r.id, customer: r.customer, amount: r.amount })),
    ),
  big_spenders: (o) =>
    o.pipe(
      filter((r) => r.amount > 990),
      map((r) => [r.customer, { customer: r.customer }]),
      distinct(),
    ),
  regions_with_huge_orders: (o, c) =>
    joined(o.pipe(filter((r) => r.amount > 999.9)), c).pipe(
      map((r) => [r.region, { region: r.region }]),
      distinct(),
    ),
};

/** orders ⋈ customers on customer = id, as rows { id, customer, amount, region }. */
function joined(orders, customers) {
  return orders.pipe(
    map((o) => [o.customer, o]),
    join(customers.pipe(map((c) => [c.id, c.region])), 'inner'),
    map(([, [o, region]]) => ({ id: o.id, customer: o.customer, amount: o.amount, region })),
  );
}

/** A view's row from what its pipeline's output carries: a row, [key, row] or [key, [row, index]] (orderBy). */
function rowOf(entry) {
  if (!Array.isArray(entry)) return entry;
  const value = entry[1];
  return Array.isArray(value) ? value[0] : value;
}

export async function create() {
  const graph = new D2();
  const orders = graph.newInput();
  const customers = graph.newInput();
  const mirrors = new Map();
  const counts = { chunks: 0 };
  for (const [name, build] of Object.entries(PIPELINES)) {
    const mirror = new RowMirror();
    mirrors.set(name, mirror);
    build(orders, customers).pipe(
      output((message) => {
        counts.chunks += 1;
        for (const [entry, multiplicity] of message.getInner()) mirror.add(rowOf(entry), multiplicity);
      }),
    );
  }
  graph.finalize();

  return {
    name: '@tanstack/db-ivm 0.2.0, 20 pipelines in one graph',
    counts,
    load(customerRows, orderRows) {
      customers.sendData(new MultiSet(customerRows.map((c) => [c, 1])));
      graph.run();
      for (let start = 0; start < orderRows.length; start += LOAD_CHUNK) {
        orders.sendData(new MultiSet(orderRows.slice(start, start + LOAD_CHUNK).map((o) => [o, 1])));
        graph.run();
      }
    },
    apply(change) {
      const entries = [[change.order, 1]];
      if (change.kind === 'update') entries.unshift([change.old, -1]);
      orders.sendData(new MultiSet(entries));
      graph.run();
    },
    settle() {
      for (const mirror of mirrors.values()) mirror.fold();
    },
    views() {
      return Object.fromEntries([...mirrors].map(([name, mirror]) => [name, mirror.rows()]));
    },
  };
}
