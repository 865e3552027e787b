SELECT
  id, itemName, description, initialBid, reserve, dateTime, expires, seller, category, extra,
  auction, bidder, price, bid_dateTime, bid_extra
FROM (
  SELECT A.id, A.itemName, A.description, A.initialBid, A.reserve, A.dateTime, A.expires, A.seller, A.category,
    A.extra, B.auction, B.bidder, B.price, B.dateTime AS bid_dateTime, B.extra AS bid_extra,
    ROW_NUMBER() OVER (PARTITION BY A.id ORDER BY B.price DESC NULLS FIRST, B.dateTime ASC NULLS LAST,
      B.bidder NULLS FIRST, B.extra NULLS FIRST) AS rownum
  FROM auction A, bid B
  WHERE A.id = B.auction AND B.dateTime BETWEEN A.dateTime AND A.expires)
WHERE rownum <= 1
