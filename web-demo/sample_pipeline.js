// The built-in sample pipeline: the SQL program and a deterministic stream of
// orders for it. One file, no imports, so that the dashboard's Web Worker, the
// edge worker's sample pipeline (`npm start`) and the tests all run the very
// same program on the very same data.

export const SAMPLE_PIPELINE_NAME = 'demo';

export const SAMPLE_SQL = `-- Orders arriving by region and product.
CREATE TABLE customers (
  id BIGINT NOT NULL PRIMARY KEY,
  name VARCHAR NOT NULL,
  region VARCHAR NOT NULL
);
CREATE TABLE orders (
  id BIGINT NOT NULL PRIMARY KEY,
  customer_id BIGINT NOT NULL,
  product VARCHAR NOT NULL,
  quantity INT NOT NULL,
  amount DOUBLE NOT NULL
);

-- Revenue per region: a join, then a group-by.
CREATE MATERIALIZED VIEW revenue_by_region AS
  SELECT c.region, COUNT(*) AS orders, SUM(o.amount) AS revenue
  FROM orders o JOIN customers c ON o.customer_id = c.id
  GROUP BY c.region;

-- The five best-selling products: an incremental top-k.
CREATE MATERIALIZED VIEW top_products AS
  SELECT product, SUM(quantity) AS units, SUM(amount) AS revenue
  FROM orders
  GROUP BY product
  ORDER BY revenue DESC
  LIMIT 5;

-- Large orders with the customer who placed them.
CREATE MATERIALIZED VIEW large_orders AS
  SELECT o.id, c.name AS customer, c.region, o.product, o.amount
  FROM orders o JOIN customers c ON o.customer_id = c.id
  WHERE o.amount >= 900;
CREATE INDEX large_orders_by_id ON large_orders(id);
`;

export const REGIONS = ['North', 'South', 'East', 'West', 'Central', 'Coast', 'Highlands', 'Islands'];
export const PRODUCTS = [
  'kettle', 'teapot', 'mug', 'grinder', 'scale', 'filter', 'beans', 'dripper',
  'press', 'thermos', 'tray', 'spoon',
];
const FIRST_NAMES = ['Ada', 'Bo', 'Cy', 'Di', 'Ed', 'Flo', 'Gus', 'Hal', 'Ida', 'Jo', 'Kit', 'Lu'];

// mulberry32: small, fast and the same in every JS engine, so a seed gives
// the same stream in Node, in workerd and in the browser.
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Customers once, then orders: mostly new ones, some updated (a changed
// quantity and amount: an upsert on the primary key) and some cancelled
// (deleted). Each call to `next(n)` returns n records for the `orders` table
// in the insert_delete format: `{ insert: row }` or `{ delete: { id } }`,
// each order at most once per call (the engine refuses two records with the
// same key in one call).
export class SampleGenerator {
  constructor({ seed = 42, customers = 200 } = {}) {
    this.random = random(seed);
    this.customerCount = customers;
    this.nextOrderId = 1;
    this.live = []; // ids of orders not cancelled, for updates and deletes
  }

  customers() {
    const rows = [];
    for (let id = 1; id <= this.customerCount; id++) {
      const name = `${FIRST_NAMES[id % FIRST_NAMES.length]} ${String.fromCharCode(65 + (id % 26))}.${id}`;
      rows.push({ id, name, region: REGIONS[Math.floor(this.random() * REGIONS.length)] });
    }
    return rows;
  }

  order(id) {
    const quantity = 1 + Math.floor(this.random() * 5);
    const price = 10 + Math.round(this.random() * 19000) / 100;
    return {
      id,
      customer_id: 1 + Math.floor(this.random() * this.customerCount),
      product: PRODUCTS[Math.floor(this.random() * this.random() * PRODUCTS.length)],
      quantity,
      amount: Math.round(quantity * price * 100) / 100,
    };
  }

  next(n) {
    const records = [];
    const touched = new Set();
    for (let i = 0; i < n; i++) {
      const roll = this.random();
      const at = Math.floor(this.random() * this.live.length);
      const id = this.live[at];
      if (roll < 0.1 && this.live.length > 100 && !touched.has(id)) {
        this.live[at] = this.live[this.live.length - 1];
        this.live.pop();
        touched.add(id);
        records.push({ delete: { id } });
      } else if (roll < 0.25 && this.live.length > 0 && !touched.has(id)) {
        touched.add(id);
        records.push({ insert: this.order(id) });
      } else {
        const fresh = this.nextOrderId++;
        this.live.push(fresh);
        touched.add(fresh);
        records.push({ insert: this.order(fresh) });
      }
    }
    return records;
  }
}
