CREATE TABLE c (id INT, name VARCHAR, credit INT);
CREATE TABLE o (cid INT, amount INT);
CREATE VIEW e AS SELECT name FROM c WHERE EXISTS (SELECT 1 FROM o WHERE o.cid = c.id) AND NOT EXISTS (SELECT 1 FROM o WHERE o.amount > c.credit);
CREATE VIEW i AS SELECT id, id IN (SELECT cid FROM o) AS i, credit NOT IN (SELECT amount FROM o WHERE o.cid = c.id) AS n FROM c;
CREATE VIEW s AS SELECT id, (SELECT COUNT(*) FROM o WHERE o.cid = c.id) AS n, (SELECT amount FROM o WHERE o.cid = c.id) AS a FROM c;
CREATE VIEW q AS SELECT id FROM c WHERE credit > ALL (SELECT amount FROM o) OR credit = ANY (SELECT amount FROM o WHERE cid = id);
CREATE VIEW h AS SELECT cid, COUNT(*) AS n FROM o GROUP BY cid HAVING COUNT(*) > (SELECT COUNT(*) FROM c) / 2;
CREATE VIEW l AS SELECT id FROM c WHERE id IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
