CREATE TABLE s (id INT NOT NULL PRIMARY KEY, region VARCHAR, product VARCHAR, qty INT);
CREATE VIEW by_region AS SELECT region, SUM(qty) AS total FROM s GROUP BY region;
CREATE VIEW by_two AS SELECT region, product, COUNT(*) AS n FROM s GROUP BY region, product;
CREATE VIEW by_expr AS SELECT qty / 10 AS bucket, COUNT(*) AS n FROM s GROUP BY qty / 10;
CREATE VIEW by_upper AS SELECT UPPER(region) || '-' AS r, MAX(qty) AS m FROM s GROUP BY UPPER(region);
CREATE VIEW key_expr AS SELECT region || '!' AS r FROM s GROUP BY region;
CREATE VIEW busy AS SELECT region FROM s GROUP BY region HAVING COUNT(*) >= 2;
CREATE VIEW having_key AS SELECT region, SUM(qty) AS total FROM s GROUP BY region HAVING region <> 'east' AND SUM(qty) > 5;
