WITH p AS (
  SELECT id, name, dateTime - dateTime % 10000 AS starttime FROM person GROUP BY id, name, starttime
),
a AS (
  SELECT seller, dateTime - dateTime % 10000 AS starttime FROM auction GROUP BY seller, starttime
)
SELECT p.id, p.name, p.starttime AS stime FROM p JOIN a ON p.id = a.seller AND p.starttime = a.starttime
