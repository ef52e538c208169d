// The dashboard's pipeline: two tables, two views, and random orders to feed it.
import { Pipeline } from 'freshet';

export const SQL = `
CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR NOT NULL, region VARCHAR NOT NULL);
CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT NOT NULL, amount DOUBLE NOT NULL);

-- Orders and revenue per region: the table and the chart.
CREATE MATERIALIZED VIEW revenue_by_region AS
  SELECT c.region, COUNT(*) AS orders, SUM(o.amount) AS revenue
  FROM orders o JOIN customers c ON o.customer = c.id
  GROUP BY c.region;

-- The five customers who spent most (an incremental top-k).
CREATE MATERIALIZED VIEW top_customers AS
  SELECT c.name, c.region, SUM(o.amount) AS spent
  FROM orders o JOIN customers c ON o.customer = c.id
  GROUP BY c.name, c.region
  ORDER BY spent DESC
  LIMIT 5;
`;

const CUSTOMERS = [
  ['Ada', 'north'], ['Grace', 'north'], ['Edsger', 'south'], ['Barbara', 'south'],
  ['Alan', 'east'], ['Frances', 'east'], ['Donald', 'west'], ['Margaret', 'west'],
].map(([name, region], i) => ({ id: i + 1, name, region }));

/** A running pipeline that knows the customers. */
export async function createPipeline() {
  const pipeline = await Pipeline.create({ sql: SQL });
  pipeline.insert('customers', CUSTOMERS);
  return pipeline;
}

let nextOrder = 1;

/** `count` new orders of random customers and amounts (ids never repeat). */
export function randomOrders(count) {
  return Array.from({ length: count }, () => ({
    id: nextOrder++,
    customer: 1 + Math.floor(Math.random() * CUSTOMERS.length),
    amount: Math.round(Math.random() * 20000) / 100,
  }));
}
