CREATE TABLE l (id INT, k INT);
CREATE TABLE r (rid INT NOT NULL PRIMARY KEY, k INT, lim INT);
CREATE VIEW eq AS SELECT l.id, r.rid FROM l LEFT JOIN r ON l.k = r.k;
CREATE VIEW eq_outer AS SELECT l.id, r.rid, r.lim FROM l LEFT OUTER JOIN r ON l.k = r.k AND l.id < r.lim;
CREATE VIEW non_equi AS SELECT l.id, r.rid FROM l LEFT JOIN r ON l.id > r.lim;
