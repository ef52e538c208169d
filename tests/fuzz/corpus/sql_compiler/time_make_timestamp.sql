CREATE TABLE m (id INT NOT NULL PRIMARY KEY, y INT, mo INT, d INT, h INT, mi INT, s DOUBLE, sd DECIMAL(8, 6), si INT);
CREATE VIEW made AS SELECT id, MAKE_DATE(y, mo, d), MAKE_TIMESTAMP(y, mo, d, h, mi, si),
  MAKE_TIMESTAMP(y, mo, d, h, mi, s), make_timestamp(y, mo, d, h, mi, sd) FROM m;
CREATE VIEW literal AS SELECT MAKE_DATE(2020, 2, 30), MAKE_DATE(2020, 2, 1), MAKE_TIMESTAMP(2020, 1, 1, 10, 0, 0.5)
  FROM m WHERE id = 1;
