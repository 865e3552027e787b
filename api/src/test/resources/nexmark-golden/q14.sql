SELECT
  auction, bidder, CAST(0.908 AS DOUBLE) * price AS price,
  CASE
    WHEN (dateTime // 3600000) % 24 >= 8 AND (dateTime // 3600000) % 24 <= 18 THEN 'dayTime'
    WHEN (dateTime // 3600000) % 24 <= 6 OR (dateTime // 3600000) % 24 >= 20 THEN 'nightTime'
    ELSE 'otherTime'
  END AS bidTimeType,
  dateTime, extra,
  length(extra) - length(replace(extra, 'c', '')) AS c_counts
FROM bid
WHERE CAST(0.908 AS DOUBLE) * price > 1000000 AND CAST(0.908 AS DOUBLE) * price < 50000000
