-- Nexmark q0, pass-through: every bid, as it is (the cost of reading and writing records).
-- Bids of the first 1,000,000 Nexmark events (920,000 bids); 'events' counts a kind's own events.
CREATE TABLE bid (
  auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR,
  dateTime TIMESTAMP(3), extra VARCHAR,
  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
) WITH ('connector' = 'nexmark', 'kind' = 'bid', 'events' = '920000');

CREATE TABLE discard_sink (
  auction BIGINT, bidder BIGINT, price BIGINT, dateTime TIMESTAMP(3), extra VARCHAR
) WITH ('connector' = 'blackhole');

INSERT INTO discard_sink
SELECT auction, bidder, price, dateTime, extra FROM bid;
