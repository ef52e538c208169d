CREATE TABLE t (id INT NOT NULL PRIMARY KEY, s VARCHAR, n INT);
CREATE VIEW trims AS SELECT id, TRIM(s) AS a, TRIM(BOTH 'xy' FROM s) AS b, TRIM(LEADING 'x' FROM s) AS c,
  TRIM(TRAILING FROM s) AS d, LTRIM(s) AS e, RTRIM(s) AS f, TRIM('x' FROM s) AS g FROM t;
CREATE VIEW pieces AS SELECT id, POSITION('b' IN s) AS p, LEFT(s, n) AS l, RIGHT(s, n) AS r, REPEAT(s, n) AS rep,
  REVERSE(s) AS rev FROM t;
CREATE VIEW joined AS SELECT id, CONCAT(s, '-', n) AS c, CONCAT_WS('/', s, NULL, CAST(n AS VARCHAR), 'z') AS ws,
  CONCAT_WS(NULL, s) AS nws, REPLACE(s, 'b', 'BB') AS rb, REPLACE(s, '', '.') AS re FROM t;
