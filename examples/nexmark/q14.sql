-- Nexmark q14, calculation: converted prices within a range, the time of day of each bid, and how
-- often 'c' occurs in its extra field (Flink's suite counts it with a UDF, count_char; here with
-- CHAR_LENGTH and REPLACE).
CREATE TABLE bid (
  auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR,
  dateTime TIMESTAMP(3), extra VARCHAR,
  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
) WITH ('connector' = 'nexmark', 'kind' = 'bid', 'events' = '920000');

CREATE TABLE discard_sink (
  auction BIGINT, bidder BIGINT, price DOUBLE, bidTimeType VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR,
  c_counts BIGINT
) WITH ('connector' = 'blackhole');

INSERT INTO discard_sink
SELECT
  auction,
  bidder,
  0.908 * price AS price,
  CASE
    WHEN HOUR(dateTime) >= 8 AND HOUR(dateTime) <= 18 THEN 'dayTime'
    WHEN HOUR(dateTime) <= 6 OR HOUR(dateTime) >= 20 THEN 'nightTime'
    ELSE 'otherTime'
  END AS bidTimeType,
  dateTime,
  extra,
  CHAR_LENGTH(extra) - CHAR_LENGTH(REPLACE(extra, 'c', '')) AS c_counts
FROM bid
WHERE 0.908 * price > 1000000 AND 0.908 * price < 50000000;
