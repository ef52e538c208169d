// @tanstack/db 0.15.2 on the 20-view dashboard: two collections (orders,
// customers) fed through their sync interface (begin / write / commit, the
// path server data takes), and the 20 views of dashboard20_program.mjs as
// live query collections written with its query builder. Each live query's
// changes go to a mirror (subscribeChanges), which the runner checks against
// the oracle. A change is timed until every live query has it: apply()
// writes and commits, then waits for TanStack's scheduler (microtasks) to
// settle; dashboard20.mjs checks that no live query changes later.
//
// What the builder cannot say, and what stands in for it:
//   top3_by_region   no window functions (ROW_NUMBER ... PARTITION BY):
//                    the closest is a top-k per region, 10 live queries
//                    (orderBy + limit 3 each, one per region), whose rows
//                    the runner takes together as the view.
//   big_buyers_by_region  no COUNT(DISTINCT): a DISTINCT subquery of
//                    (region, customer), then groupBy region and count.
//   orders_by_size, region_size_grid  no FLOOR; the size bands are
//                    caseWhen, as in the SQL.

import { BTreeIndex, createCollection, createLiveQueryCollection, eq, gt, gte, lt, and, count, sum, avg, min, max, caseWhen } from '@tanstack/db';
import { RowMirror } from './dashboard20_mirror.mjs';
import { LOAD_CHUNK, REGIONS } from './workload.mjs';

const size = (o) => caseWhen(lt(o.amount, 10), 'small', lt(o.amount, 100), 'medium', lt(o.amount, 500), 'large', 'huge');

/** A collection fed by hand through its sync interface. */
function syncedCollection(id) {
  let sync;
  const collection = createCollection({
    id,
    getKey: (row) => row.id,
    startSync: true,
    sync: {
      sync: (params) => {
        sync = params;
        params.markReady();
      },
    },
  });
  return {
    collection,
    write(messages) {
      sync.begin();
      for (const message of messages) sync.write(message);
      sync.commit();
    },
  };
}

/** view name -> query functions (one, or several whose rows make the view). */
function queries(orders, customers) {
  const joined = (q) => q.from({ o: orders }).innerJoin({ c: customers }, ({ o, c }) => eq(o.customer, c.id));
  const perCustomer = (q) => q.from({ o: orders }).groupBy(({ o }) => o.customer);
  return {
    totals: [(q) => q.from({ o: orders }).select(({ o }) => ({ orders: count(o.id), revenue: sum(o.amount), avg_amount: avg(o.amount) }))],
    revenue_by_region: [(q) => joined(q).groupBy(({ c }) => c.region).select(({ o, c }) => ({ region: c.region, orders: count(o.id), revenue: sum(o.amount) }))],
    amount_stats_by_region: [
      (q) => joined(q).groupBy(({ c }) => c.region).select(({ o, c }) => ({ region: c.region, avg_amount: avg(o.amount), smallest: min(o.amount), largest: max(o.amount) })),
    ],
    big_orders_by_region: [
      (q) => joined(q).where(({ o }) => gt(o.amount, 900)).groupBy(({ c }) => c.region).select(({ o, c }) => ({ region: c.region, orders: count(o.id), revenue: sum(o.amount) })),
    ],
    orders_by_size: [(q) => q.from({ o: orders }).groupBy(({ o }) => size(o)).select(({ o }) => ({ size: size(o), orders: count(o.id), revenue: sum(o.amount) }))],
    region_size_grid: [(q) => joined(q).groupBy(({ o, c }) => [c.region, size(o)]).select(({ o, c }) => ({ region: c.region, size: size(o), orders: count(o.id) }))],
    revenue_by_customer: [(q) => perCustomer(q).select(({ o }) => ({ customer: o.customer, orders: count(o.id), revenue: sum(o.amount) }))],
    customer_summary: [(q) => joined(q).groupBy(({ c }) => [c.id, c.region]).select(({ o, c }) => ({ id: c.id, region: c.region, orders: count(o.id), revenue: sum(o.amount) }))],
    largest_order_by_customer: [(q) => perCustomer(q).select(({ o }) => ({ customer: o.customer, largest: max(o.amount) }))],
    vip_customers: [(q) => perCustomer(q).select(({ o }) => ({ customer: o.customer, revenue: sum(o.amount) })).having(({ $selected }) => gt($selected.revenue, 110000))],
    customers_by_order_count: [
      (q) => {
        const n = perCustomer(q).select(({ o }) => ({ customer: o.customer, orders: count(o.id) }));
        return q.from({ n }).groupBy(({ n }) => n.orders).select(({ n }) => ({ orders: n.orders, customers: count(n.customer) }));
      },
    ],
    big_buyers_by_region: [
      (q) => {
        const pairs = joined(q).where(({ o }) => gt(o.amount, 990)).select(({ o, c }) => ({ region: c.region, customer: o.customer })).distinct();
        return q.from({ p: pairs }).groupBy(({ p }) => p.region).select(({ p }) => ({ region: p.region, customers: count(p.customer) }));
      },
    ],
    top10_orders: [(q) => q.from({ o: orders }).orderBy(({ o }) => o.amount, 'desc').orderBy(({ o }) => o.id, 'asc').limit(10).select(({ o }) => ({ id: o.id, customer: o.customer, amount: o.amount }))],
    latest_orders: [(q) => q.from({ o: orders }).orderBy(({ o }) => o.id, 'desc').limit(10).select(({ o }) => ({ id: o.id, customer: o.customer, amount: o.amount }))],
    top10_customers: [
      (q) => perCustomer(q).select(({ o }) => ({ customer: o.customer, revenue: sum(o.amount) })).orderBy(({ $selected }) => $selected.revenue, 'desc').orderBy(({ o }) => o.customer, 'asc').limit(10),
    ],
    top3_by_region: Array.from({ length: REGIONS }, (_, i) => (q) =>
      joined(q).where(({ c }) => eq(c.region, `region-${i}`)).orderBy(({ o }) => o.amount, 'desc').orderBy(({ o }) => o.id, 'asc').limit(3).select(({ o, c }) => ({ id: o.id, region: c.region, amount: o.amount })),
    ),
    big_orders: [(q) => q.from({ o: orders }).where(({ o }) => gte(o.amount, 990)).select(({ o }) => ({ id: o.id, customer: o.customer, amount: o.amount }))],
    region3_big_orders: [
      (q) => joined(q).where(({ o, c }) => and(eq(c.region, 'region-3'), gt(o.amount, 950))).select(({ o }) => ({ id: o.id, customer: o.customer, amount: o.amount })),
    ],
    big_spenders: [(q) => q.from({ o: orders }).where(({ o }) => gt(o.amount, 990)).select(({ o }) => ({ customer: o.customer })).distinct()],
    regions_with_huge_orders: [(q) => joined(q).where(({ o }) => gt(o.amount, 999.9)).select(({ c }) => ({ region: c.region })).distinct()],
  };
}

/** A mirror of a live query from its change messages, by the query's keys. */
class KeyedMirror {
  constructor() {
    this.rows = new Map();
  }

  apply(changes) {
    for (const { type, key, value } of changes) {
      if (type === 'delete') this.rows.delete(key);
      else this.rows.set(key, value);
    }
  }
}

export async function create() {
  const orders = syncedCollection('orders');
  const customers = syncedCollection('customers');
  // The indexes TanStack asks for (its warnings name them): the joins' key,
  // and the orderBy + limit columns.
  orders.collection.createIndex((row) => row.customer, { indexType: BTreeIndex });
  orders.collection.createIndex((row) => row.amount, { indexType: BTreeIndex });
  orders.collection.createIndex((row) => row.id, { indexType: BTreeIndex });
  const views = new Map(); // view name -> its live queries' mirrors
  const counts = { chunks: 0 };
  const live = [];
  for (const [name, queryFns] of Object.entries(queries(orders.collection, customers.collection))) {
    const mirrors = queryFns.map((query) => {
      const collection = createLiveQueryCollection({ query, startSync: true, gcTime: 0 });
      const mirror = new KeyedMirror();
      live.push({ collection, subscription: collection.subscribeChanges((changes) => {
        counts.chunks += 1;
        mirror.apply(changes);
      }, { includeInitialState: true }) });
      return mirror;
    });
    views.set(name, mirrors);
  }
  await Promise.all(live.map(({ collection }) => collection.preload()));

  return {
    name: `@tanstack/db 0.15.2, ${live.length} live queries`,
    counts,
    async load(customerRows, orderRows) {
      customers.write(customerRows.map((value) => ({ type: 'insert', value })));
      await null;
      for (let start = 0; start < orderRows.length; start += LOAD_CHUNK) {
        orders.write(orderRows.slice(start, start + LOAD_CHUNK).map((value) => ({ type: 'insert', value })));
        await null;
      }
    },
    async apply(change) {
      orders.write([{ type: change.kind, value: change.order }]);
      await null;
    },
    views() {
      const plain = (row) => Object.fromEntries(Object.entries(row).filter(([k]) => !k.startsWith('$')));
      return Object.fromEntries([...views].map(([name, mirrors]) => [name, mirrors.flatMap((m) => [...m.rows.values()].map(plain))]));
    },
    close() {
      for (const { subscription } of live) subscription.unsubscribe();
    },
  };
}
