CREATE TABLE shifts (id INT NOT NULL PRIMARY KEY, starts TIME, ends TIME(3), at TIMESTAMP);
CREATE VIEW literal AS SELECT id, TIME '12:34:56.789' AS t, TIME '00:00:00' AS midnight,
  TIME '23:59:59.123456789' AS nanos FROM shifts WHERE id = 1;
CREATE VIEW wrapped AS SELECT id, starts + INTERVAL '90' MINUTE AS later, starts - INTERVAL '2' HOUR AS earlier,
  starts + INTERVAL '1 01:00' DAY TO MINUTE AS next_day, starts + INTERVAL '1' YEAR AS long_interval,
  INTERVAL '-30' SECOND + starts AS commuted FROM shifts;
CREATE VIEW lengths AS SELECT id, (ends - starts) MINUTE AS minutes, (ends - starts) HOUR TO SECOND AS exact FROM shifts;
CREATE VIEW casts AS SELECT id, CAST(starts AS VARCHAR) AS text, CAST(at AS TIME) AS time_of_day,
  CAST(starts AS TIMESTAMP) AS on_epoch, CAST(CAST(starts AS VARCHAR) AS TIME) = starts AS round_trip FROM shifts;
CREATE VIEW early AS SELECT id FROM shifts WHERE starts < '09:00:00' AND starts >= TIME '06:00:00';
CREATE VIEW per_start AS SELECT starts, COUNT(*) AS n, MAX(ends) AS latest_end FROM shifts GROUP BY starts;
CREATE VIEW bounds AS SELECT MIN(starts) AS first_start, MAX(starts) AS last_start FROM shifts;
CREATE VIEW latest AS SELECT id, ends FROM shifts ORDER BY ends DESC NULLS LAST LIMIT 2;
CREATE VIEW days_away AS SELECT id, starts - INTERVAL '100000' DAY AS same,
  starts - INTERVAL '3 01:00' DAY TO MINUTE AS hour_before, starts + INTERVAL '-1' SECOND * 86401 AS second_before
  FROM shifts WHERE id IN (1, 4);
