CREATE VIEW big AS SELECT * FROM orders WHERE amount > 100; -- note
CREATE INDEX i ON big(id);
