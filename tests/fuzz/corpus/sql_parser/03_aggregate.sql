CREATE MATERIALIZED VIEW by_region AS
  SELECT c.region, COUNT(*) AS orders, SUM(o.amount) AS total
  FROM orders o JOIN customers c ON o.customer = c.id
  GROUP BY c.region;
