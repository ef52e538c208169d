CREATE VIEW v AS SELECT DISTINCT -a * b % 3, NOT a IS NOT NULL OR b <> c FROM (SELECT * FROM t) AS s, u /* block */ GROUP BY a HAVING count(DISTINCT b) >= 2;
