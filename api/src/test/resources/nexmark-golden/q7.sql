WITH highest AS (
  SELECT MAX(price) AS maxprice, dateTime - dateTime % 10000 + 10000 AS dt
  FROM bid GROUP BY dateTime - dateTime % 10000
)
SELECT B.auction, B.price, B.bidder, B.dateTime, B.extra
FROM bid B JOIN highest H ON B.price = H.maxprice
WHERE B.dateTime BETWEEN H.dt - 10000 AND H.dt
