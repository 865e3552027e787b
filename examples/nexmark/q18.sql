-- Nexmark q18, find last bid: the latest bid of each bidder on each auction (ROW_NUMBER() without a
-- window: an unbounded deduplication, an upsert stream keyed by bidder and auction into the sink).
CREATE TABLE bid (
  auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR,
  dateTime TIMESTAMP(3), extra VARCHAR,
  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
) WITH ('connector' = 'nexmark', 'kind' = 'bid', 'events' = '920000');

CREATE TABLE discard_sink (
  auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR
) WITH ('connector' = 'blackhole');

INSERT INTO discard_sink
SELECT auction, bidder, price, channel, url, dateTime, extra
FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY dateTime DESC) AS rank_number
      FROM bid)
WHERE rank_number <= 1;
