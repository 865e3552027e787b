-- Nexmark q11, user sessions: how many bids each bidder makes in a session, sessions ending after
-- 10 seconds without a bid.
CREATE TABLE bid (
  auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR,
  dateTime TIMESTAMP(3), extra VARCHAR,
  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
) WITH ('connector' = 'nexmark', 'kind' = 'bid', 'events' = '920000');

CREATE TABLE discard_sink (
  bidder BIGINT, bid_count BIGINT, starttime TIMESTAMP(3), endtime TIMESTAMP(3)
) WITH ('connector' = 'blackhole');

INSERT INTO discard_sink
SELECT B.bidder, COUNT(*) AS bid_count, window_start AS starttime, window_end AS endtime
FROM TABLE(SESSION(TABLE bid, DESCRIPTOR(dateTime), DESCRIPTOR(bidder), INTERVAL '10' SECOND)) B
GROUP BY B.bidder, window_start, window_end;
