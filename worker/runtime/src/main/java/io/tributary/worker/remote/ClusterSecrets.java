package io.tributary.worker.remote;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Proofs that a worker knows the cluster secret, without the secret travelling. */
final class ClusterSecrets {
  private static final SecureRandom RANDOM = new SecureRandom();

  private ClusterSecrets() {}

  static String nonce() {
    byte[] b = new byte[24];
    RANDOM.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  /** The worker's answer to {@code nonce}. */
  static String proof(String secret, String nonce, String worker) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(("register:" + nonce + ":" + worker)
          .getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  static boolean valid(String secret, String nonce, String worker, String proof) {
    return proof != null && MessageDigest.isEqual(proof(secret, nonce, worker).getBytes(StandardCharsets.UTF_8),
        proof.getBytes(StandardCharsets.UTF_8));
  }
}
