CREATE TABLE t (id INT NOT NULL PRIMARY KEY, a INT, b INT, s VARCHAR, d DATE);
CREATE VIEW nulls AS SELECT id, NULLIF(a, b) AS ni, NULLIF(a, 1.0) AS nd, NULLIF(s, 'x') AS ns, IFNULL(a, -1) AS fa,
  NVL(s, '?') AS fs, NULLIF(NULL, a) AS nn FROM t;
CREATE VIEW extremes AS SELECT id, GREATEST(a, b) AS g, LEAST(a, b, 0) AS l, GREATEST(a, 2.5) AS gd,
  LEAST(s, 'm') AS ls, GREATEST(d, DATE '2024-06-01') AS gdate, GREATEST(1, 2, 3, 4, 5, 6, 7, a) AS many,
  LEAST(a, NULL) AS ln FROM t;
