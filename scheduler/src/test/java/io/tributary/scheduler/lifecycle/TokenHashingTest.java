package io.tributary.scheduler.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.scheduler.metadata.EmbeddedMetadataStore;
import io.tributary.scheduler.metadata.Item;
import io.tributary.scheduler.metadata.MetadataStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tokens are stored under hashes keyed with the server's key; tokens and administrator entries of
 * stores written by older versions (unkeyed SHA-256) keep working and are rewritten keyed on first use.
 */
class TokenHashingTest {
  static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  @TempDir
  Path dir;

  @Test
  void tokensOfAnOlderStoreWorkAndAreRewrittenKeyed() throws Exception {
    String admin = "an-old-administrator-token";
    String secret;
    try (MetadataStore m = new EmbeddedMetadataStore(dir)) {
      ProjectStore projects = new ProjectStore(m, Clock.systemUTC());
      TokenStore legacy = new TokenStore(m, Clock.systemUTC(), projects, null, Integer.MAX_VALUE);
      legacy.bootstrapAdmin(admin);
      secret = legacy.create("default", "ci", TokenStore.Role.EDITOR, null).secret();
      assertThat(m.get("control/tokens/" + TokenStore.sha256(secret))).isPresent();

      TokenStore keyed = new TokenStore(m, Clock.systemUTC(), projects, KEY, Integer.MAX_VALUE);
      assertThat(keyed.authenticate(admin)).hasValueSatisfying(p -> assertThat(p.administrator()).isTrue());
      assertThat(keyed.authenticate(secret)).hasValueSatisfying(p -> assertThat(p.role()).isEqualTo(TokenStore.Role.EDITOR));
      assertThat(m.get("control/tokens/" + TokenStore.sha256(secret))).as("the unkeyed entry is gone").isEmpty();
      assertThat(m.get("control/tokens/" + keyed.hash(secret))).isPresent();
      String adminEntry = new String(m.get("control/admin/bootstrap").map(Item::value).orElseThrow(), StandardCharsets.UTF_8);
      assertThat(adminEntry).contains("hmac-sha256").doesNotContain(TokenStore.sha256(admin));
      assertThat(keyed.authenticate(secret)).as("still works, keyed").isPresent();
      assertThat(keyed.authenticate(admin)).isPresent();
      assertThat(keyed.authenticate(admin + "x")).isEmpty();
      TokenStore otherKey = new TokenStore(m, Clock.systemUTC(), projects,
          "another-server-key-0123456789abcdef".getBytes(StandardCharsets.US_ASCII), Integer.MAX_VALUE);
      assertThat(otherKey.authenticate(secret)).as("a copy of the store without the key").isEmpty();
    }
  }
}
