CREATE TABLE t (id INT NOT NULL PRIMARY KEY, ti TINYINT, si SMALLINT, i INT, bi BIGINT, dc DECIMAL(8, 2), db DOUBLE);
CREATE VIEW widen AS SELECT id, i + bi AS ib, ti + si AS ts, ti * bi AS tb, i + dc AS idc, i + db AS idb FROM t;
CREATE VIEW decimals AS SELECT id, dc + 0.1 AS d1, dc * 1.5 AS d2, dc - dc AS d3, 0.1 + 0.2 AS exact, -dc AS neg FROM t;
CREATE VIEW division AS SELECT id, i / 2 AS half, -i / 2 AS neg_half, i / -3 AS third, bi / i AS ratio, db / 4 AS quarter FROM t;
CREATE VIEW precedence AS SELECT id, 1 + 2 * 3 AS a, (1 + 2) * 3 AS b, 10 - 4 - 3 AS c, 2 * -ti AS d, i - -1 AS e FROM t;
CREATE VIEW big_add AS SELECT id FROM t WHERE i + bi > 2147483647;
