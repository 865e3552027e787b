-- Nexmark q9, winning bids: each auction's highest bid made while it was open, the earliest of equal
-- ones (a regular join, every auction and bid kept, then ROW_NUMBER() without a window: an unbounded
-- top-1 per auction, an upsert stream keyed by the auction's id into the sink).
-- The auctions and bids of the first 1,000,000 Nexmark events (60,000 and 920,000: each table's
-- 'events' counts its own kind), from the same generator (seed), so their ids match.
CREATE TABLE auction (
  id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT,
  dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR,
  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
) WITH ('connector' = 'nexmark', 'kind' = 'auction', 'events' = '60000');

CREATE TABLE bid (
  auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR,
  dateTime TIMESTAMP(3), extra VARCHAR,
  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
) WITH ('connector' = 'nexmark', 'kind' = 'bid', 'events' = '920000');

CREATE TABLE discard_sink (
  id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT, dateTime TIMESTAMP(3),
  expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR,
  auction BIGINT, bidder BIGINT, price BIGINT, bid_dateTime TIMESTAMP(3), bid_extra VARCHAR
) WITH ('connector' = 'blackhole');

INSERT INTO discard_sink
SELECT
  id, itemName, description, initialBid, reserve, dateTime, expires, seller, category, extra,
  auction, bidder, price, bid_dateTime, bid_extra
FROM (
  SELECT A.*, B.auction, B.bidder, B.price, B.dateTime AS bid_dateTime, B.extra AS bid_extra,
    ROW_NUMBER() OVER (PARTITION BY A.id ORDER BY B.price DESC, B.dateTime ASC) AS rownum
  FROM auction A, bid B
  WHERE A.id = B.auction AND B.dateTime BETWEEN A.dateTime AND A.expires
)
WHERE rownum <= 1;
