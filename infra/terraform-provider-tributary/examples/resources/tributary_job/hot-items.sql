-- Bids per auction in 10-second windows sliding by 2 seconds, then the most bid-on count per window.
SET 'parallelism' = '2';
SET 'checkpoints.interval' = '10s';

CREATE TABLE bid (
  auction BIGINT, bidder BIGINT, price BIGINT, dateTime TIMESTAMP(3),
  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
) WITH ('connector' = 'nexmark', 'kind' = 'bid', 'maxRecordsPerSecond' = '1000');

CREATE TABLE hottest (window_end TIMESTAMP(3), bids BIGINT) WITH ('connector' = 'blackhole');

INSERT INTO hottest
SELECT endtime, MAX(num) FROM (
  SELECT auction, COUNT(*) AS num, window_start AS starttime, window_end AS endtime
  FROM TABLE(HOP(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
  GROUP BY auction, window_start, window_end)
GROUP BY starttime, endtime;
