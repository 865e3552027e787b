-- Nexmark q4, average price for a category: the average of the winning bids of the auctions of each
-- category (the highest bid made while an auction was open: a regular join, every auction and bid
-- kept, then an unbounded GROUP BY per auction, whose upsert stream an unbounded GROUP BY per
-- category averages, each auction's last winning bid replacing its previous one). The sink's columns
-- are Flink's (the category in 'id'), 'final' a DOUBLE: Tributary's AVG is one.
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

CREATE TABLE discard_sink (id BIGINT, final DOUBLE) WITH ('connector' = 'blackhole');

INSERT INTO discard_sink
SELECT
  Q.category,
  AVG(Q.final)
FROM (
  SELECT MAX(B.price) AS final, A.category
  FROM auction A, bid B
  WHERE A.id = B.auction AND B.dateTime BETWEEN A.dateTime AND A.expires
  GROUP BY A.id, A.category
) Q
GROUP BY Q.category;
