// The floor, not a competitor: a hand-written Map of region -> (count, sum)
// updated in place, like the C++ baseline. It knows the query in advance and
// keeps only what this one view needs (each order's customer and amount).

export async function create() {
  const regionOfCustomer = new Map();
  const orders = new Map(); // id -> { customer, amount }, to undo an order's old contribution
  const view = new Map(); // region -> { orders, total }

  function add(order, sign) {
    const region = regionOfCustomer.get(order.customer);
    if (region === undefined) return null; // inner join: no customer, no row
    let entry = view.get(region);
    if (!entry) view.set(region, (entry = { orders: 0, total: 0 }));
    entry.orders += sign;
    entry.total += sign * order.amount;
    return region;
  }

  return {
    name: 'plain JS (floor)',
    load(customers, rows) {
      for (const c of customers) regionOfCustomer.set(c.id, c.region);
      for (const o of rows) {
        orders.set(o.id, o);
        add(o, 1);
      }
    },
    // The delta: the regions touched, with their new aggregates.
    apply(change) {
      const touched = [];
      const before = orders.get(change.order.id);
      if (before) touched.push(add(before, -1));
      orders.set(change.order.id, change.order);
      touched.push(add(change.order, 1));
      return touched.map((region) => ({ region, ...view.get(region) }));
    },
    result() {
      return new Map([...view].filter(([, v]) => v.orders > 0).map(([k, v]) => [k, { ...v }]));
    },
  };
}
