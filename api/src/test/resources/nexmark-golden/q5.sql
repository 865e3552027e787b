WITH hop AS (
  SELECT auction, dateTime - dateTime % 2000 - k * 2000 AS ws
  FROM bid CROSS JOIN range(5) AS r(k)
),
auction_bids AS (
  SELECT auction, COUNT(*) AS num, ws FROM hop GROUP BY auction, ws
),
max_bids AS (
  SELECT MAX(num) AS maxn, ws FROM auction_bids GROUP BY ws
)
SELECT a.auction, a.num
FROM auction_bids a JOIN max_bids m ON a.ws = m.ws AND a.num >= m.maxn
