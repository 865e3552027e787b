-- Nexmark q2, selection: the bids on a set of auctions.
CREATE TABLE bid (
  auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR,
  dateTime TIMESTAMP(3), extra VARCHAR,
  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
) WITH ('connector' = 'nexmark', 'kind' = 'bid', 'events' = '920000');

CREATE TABLE discard_sink (auction BIGINT, price BIGINT) WITH ('connector' = 'blackhole');

INSERT INTO discard_sink
SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0;
