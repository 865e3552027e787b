-- Nexmark q19, auction top-N: the 10 highest bids of each auction so far (ROW_NUMBER() without a
-- window: an unbounded top-N, an upsert stream keyed by auction and rank_number into the sink).
CREATE TABLE bid (
  auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR,
  dateTime TIMESTAMP(3), extra VARCHAR,
  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
) WITH ('connector' = 'nexmark', 'kind' = 'bid', 'events' = '920000');

CREATE TABLE discard_sink (
  auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR,
  rank_number BIGINT
) WITH ('connector' = 'blackhole');

INSERT INTO discard_sink
SELECT * FROM
(SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rank_number FROM bid)
WHERE rank_number <= 10;
