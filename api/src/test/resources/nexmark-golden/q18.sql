SELECT auction, bidder, price, channel, url, dateTime, extra
FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY bidder, auction
    ORDER BY dateTime DESC, price NULLS FIRST, channel NULLS FIRST, url NULLS FIRST, extra NULLS FIRST) AS rank_number
  FROM bid)
WHERE rank_number <= 1
