CREATE TABLE t (id INT NOT NULL PRIMARY KEY, cat VARCHAR, price INT);
CREATE TABLE u (id INT NOT NULL PRIMARY KEY, label VARCHAR);
CREATE VIEW star AS SELECT * FROM t;
CREATE VIEW qualified_star AS SELECT u.*, t.price FROM t JOIN u ON t.id = u.id;
CREATE VIEW exprs AS SELECT id, price * 2 + 1 AS p2, cat || '!' AS shout, price FROM t;
CREATE VIEW cats AS SELECT DISTINCT cat FROM t;
CREATE VIEW from_view AS SELECT s.id AS sid FROM star AS s WHERE s.price > 5;
CREATE VIEW from_subquery AS
  SELECT q.c, q.total FROM (SELECT cat AS c, price + 100 AS total FROM t) AS q WHERE q.total >= 110;
CREATE VIEW nested AS
  SELECT z.c FROM (SELECT y.c FROM (SELECT cat AS c FROM t WHERE price > 1) y) z;
