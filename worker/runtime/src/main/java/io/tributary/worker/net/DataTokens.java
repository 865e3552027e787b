package io.tributary.worker.net;

import io.tributary.protocol.AttemptId;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The data-plane credentials of attempts: an HMAC-SHA256 of the attempt under the cluster secret.
 * The control plane issues an attempt's token with its deployment; a receiving worker checks a
 * sender's token without having to know the attempt yet. A process without the cluster secret can
 * neither make one nor learn one from another attempt's.
 */
public final class DataTokens {
  private final byte[] secret;

  public DataTokens(String clusterSecret) {
    if (clusterSecret == null || clusterSecret.isEmpty()) {
      throw new IllegalArgumentException("the cluster secret is empty");
    }
    this.secret = clusterSecret.getBytes(StandardCharsets.UTF_8);
  }

  /** The token of {@code attempt}. */
  public String issue(AttemptId attempt) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(("data:" + attempt.job() + "#" + attempt.attempt())
          .getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  /** Whether {@code token} is the one issued for {@code attempt} (compared in constant time). */
  public boolean valid(AttemptId attempt, String token) {
    return token != null && MessageDigest.isEqual(issue(attempt).getBytes(StandardCharsets.UTF_8),
        token.getBytes(StandardCharsets.UTF_8));
  }
}
