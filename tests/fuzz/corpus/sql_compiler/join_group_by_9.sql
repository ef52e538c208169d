CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT, amount DOUBLE);
CREATE TABLE customers (id BIGINT NOT NULL, region VARCHAR, PRIMARY KEY (id));
CREATE MATERIALIZED VIEW by_region AS
  SELECT c.region, COUNT(*) AS orders, SUM(o.amount) AS total
  FROM orders o JOIN customers c ON o.customer = c.id
  GROUP BY c.region;
CREATE VIEW big AS SELECT * FROM orders WHERE amount > 100;
CREATE INDEX by_region_idx ON by_region(region);
