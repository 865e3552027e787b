package io.tributary.scheduler.lifecycle;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.tributary.scheduler.spec.JobSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The identity of a spec's meaning: SHA-256 of the parsed {@link JobSpec} written as canonical JSON
 * (record components in declaration order, maps in document order, no whitespace). Two texts that
 * parse to the same spec have the same fingerprint: YAML or JSON, comments, indentation, quoting,
 * flow or block style, the order of a spec's top-level fields, {@code 10s} or {@code 10000ms}.
 * Reordering the entries of a map (sources, select, aggregate) changes it, since that order can
 * change the job's output.
 */
public final class SpecFingerprint {
  private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.INDENT_OUTPUT);

  private SpecFingerprint() {}

  public static String of(JobSpec spec) {
    try {
      byte[] canonical = JSON.writeValueAsString(spec).getBytes(StandardCharsets.UTF_8);
      return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a parsed spec as JSON: " + e.getMessage(), e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
