SELECT auction, bidder, CAST(0.908 AS DOUBLE) * price AS price, dateTime, extra FROM bid
