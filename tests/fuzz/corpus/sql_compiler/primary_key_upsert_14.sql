CREATE TABLE inline_key (id INT NOT NULL PRIMARY KEY, name VARCHAR, score INT);
CREATE TABLE clause_key (a INT NOT NULL, b VARCHAR NOT NULL, v DOUBLE, PRIMARY KEY (a, b));
CREATE VIEW names AS SELECT id, name, score FROM inline_key;
CREATE VIEW pairs AS SELECT a, b, v FROM clause_key;
CREATE VIEW total AS SELECT SUM(score) AS s, COUNT(*) AS n FROM inline_key;
