CREATE TABLE t (id INT NOT NULL PRIMARY KEY, s VARCHAR, p VARCHAR);
CREATE VIEW matches AS SELECT id, s RLIKE '^a.c$' AS exact, s RLIKE 'b+' AS has_b, s NOT RLIKE '(?i)ABC' AS no_abc,
  RLIKE(s, '\d{2,}') AS digits FROM t;
CREATE VIEW replaced AS SELECT id, REGEXP_REPLACE(s, '[aeiou]') AS no_vowels,
  REGEXP_REPLACE(s, '(\w+)@(?P<host>\w+)', '${host}:$1$$') AS swapped, REGEXP_REPLACE(s, 'b*', '-') AS empties,
  REGEXP_REPLACE(s, 'a.*?c', '<>') AS lazy FROM t;
CREATE VIEW dynamic AS SELECT id, s RLIKE p AS m FROM t;
