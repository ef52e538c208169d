CREATE TABLE t (g VARCHAR, x INT, d DOUBLE, m DECIMAL(6, 2));
CREATE VIEW stats AS
  SELECT g, COUNT(*) AS n, COUNT(x) AS nx, COUNT(DISTINCT x) AS dx, SUM(x) AS s, AVG(x) AS a,
         MIN(x) AS lo, MAX(x) AS hi
  FROM t GROUP BY g;
CREATE VIEW fractional AS SELECT g, AVG(d) AS ad, SUM(m) AS sm, AVG(m) AS am, MIN(m) AS mm FROM t GROUP BY g;
CREATE VIEW combined AS SELECT g, MAX(x) - MIN(x) AS spread, SUM(x) + COUNT(*) AS sc, MAX(x) AS hi FROM t GROUP BY g;
