CREATE TABLE l (id INT NOT NULL PRIMARY KEY, k INT, x INT);
CREATE TABLE r (id INT NOT NULL PRIMARY KEY, k INT, y INT);
CREATE VIEW equi AS SELECT l.id AS lid, r.id AS rid FROM l INNER JOIN r ON l.k = r.k;
CREATE VIEW two_keys AS SELECT l.id AS lid, r.id AS rid FROM l JOIN r ON l.k = r.k AND r.y = l.x;
CREATE VIEW residual AS SELECT l.id AS lid, r.id AS rid FROM l JOIN r ON l.k = r.k AND l.x < r.y;
CREATE VIEW range_join AS SELECT l.id AS lid, r.id AS rid FROM l JOIN r ON l.x BETWEEN r.y - 1 AND r.y + 1;
CREATE VIEW comma AS SELECT l.id AS lid, r.id AS rid FROM l, r WHERE l.k = r.k AND r.y > 0;
CREATE VIEW self AS SELECT a.id AS a, b.id AS b FROM l a JOIN l b ON a.k = b.k AND a.id < b.id;
