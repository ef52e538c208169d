CREATE TABLE t (id INT NOT NULL PRIMARY KEY, grp VARCHAR, x INT);
CREATE VIEW base (ident, g, doubled) AS SELECT id, grp, x * 2 FROM t;
CREATE MATERIALIZED VIEW big AS SELECT ident, g, doubled FROM base WHERE doubled > 10;
CREATE VIEW big_count AS SELECT g, COUNT(*) AS n FROM big GROUP BY g;
CREATE VIEW names AS SELECT x + 1, x AS renamed, grp FROM t;
CREATE VIEW top_level AS SELECT n * 10 AS tens FROM big_count WHERE g = 'a';
CREATE INDEX big_by_g ON big(g);
CREATE INDEX big_by_g_ident ON big(g, ident);
CREATE INDEX names_idx ON names("EXPR$0");
