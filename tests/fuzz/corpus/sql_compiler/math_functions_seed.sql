CREATE TABLE t (id INT NOT NULL PRIMARY KEY, i INT, m DECIMAL(8, 3), d DOUBLE);
CREATE VIEW mods AS SELECT id, MOD(i, 4) AS mi, MOD(m, 2) AS mm, MOD(i, m) AS mixed FROM t;
CREATE VIEW powers AS SELECT id, POWER(i, 2) AS sq, SQRT(d) AS root, EXP(0) AS one, LN(ABS(d)) AS ln_d, LOG10(ABS(i)) AS lg,
  LOG(8, 2) AS log2, LOG(EXP(2)) AS two FROM t;
CREATE VIEW signs AS SELECT id, SIGN(i) AS si, SIGN(m) AS sm, SIGN(d) AS sd FROM t;
CREATE VIEW truncs AS SELECT id, TRUNCATE(m) AS t0, TRUNCATE(m, 1) AS t1, TRUNC(m, -1) AS tneg, TRUNCATE(d, 1) AS td,
  TRUNCATE(i, -1) AS ti, FLOOR(m) AS fm, CEIL(d) AS cd FROM t;
