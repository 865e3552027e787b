WITH marked AS (
  SELECT bidder, dateTime,
    CASE WHEN dateTime - LAG(dateTime) OVER (PARTITION BY bidder ORDER BY dateTime) < 10000 THEN 0 ELSE 1 END AS opens
  FROM bid
),
sessions AS (
  SELECT bidder, dateTime,
    SUM(opens) OVER (PARTITION BY bidder ORDER BY dateTime ROWS UNBOUNDED PRECEDING) AS session
  FROM marked
)
SELECT bidder, COUNT(*) AS bid_count, MIN(dateTime) AS starttime, MAX(dateTime) + 10000 AS endtime
FROM sessions GROUP BY bidder, session
