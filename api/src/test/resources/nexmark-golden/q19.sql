SELECT auction, bidder, price, channel, url, dateTime, extra, rank_number
FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC NULLS FIRST,
    bidder NULLS FIRST, channel NULLS FIRST, url NULLS FIRST, dateTime NULLS FIRST, extra NULLS FIRST) AS rank_number
  FROM bid)
WHERE rank_number <= 10
