package io.tributary.scheduler.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.scheduler.metadata.ConflictException;
import io.tributary.scheduler.metadata.Item;
import io.tributary.scheduler.metadata.MetadataStore;
import io.tributary.scheduler.metadata.Page;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * API tokens. A token's secret is shown once, when it is created; the store keeps only its hash,
 * an HMAC-SHA256 keyed with the server's token key, which is kept outside the metadata store: a
 * copy of the store alone allows no offline guess, not even of a weak administrator token. (A
 * project token's secret has 192 random bits; the administrator's may be chosen by a person.)
 *
 * <pre>
 *   control/tokens/k-&lt;hmac&gt;            the token, found by the keyed hash of the secret a request presents
 *   projects/&lt;project&gt;/tokens/&lt;id&gt;      the same token, listed in its project
 *   control/admin/bootstrap             the keyed hash of the server-wide administrator token
 * </pre>
 *
 * <p><b>Older stores</b> hold unkeyed SHA-256 hashes ({@code control/tokens/<sha256>}, an
 * administrator entry without {@code alg}). They keep working: a token found by its SHA-256 is
 * rewritten under its keyed hash the first time it is used, and the SHA-256 entry deleted. Without
 * a key (embedded uses by code, tests) hashes are plain SHA-256 as before.
 *
 * <p>Roles are ordered: a {@code viewer} reads, an {@code editor} also changes jobs, an {@code admin}
 * also manages the project's tokens. The administrator token may do everything in every project.
 * Thread-safe.
 */
public final class TokenStore {
  /** What a token may do; each role includes the ones before it. */
  public enum Role {
    VIEWER, EDITOR, ADMIN;

    public String apiName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Role parse(String s) {
      for (Role r : values()) {
        if (r.apiName().equals(s)) {
          return r;
        }
      }
      throw new InvalidRequestException("role", "must be one of viewer, editor, admin, not '" + s + "'");
    }

    public boolean includes(Role other) {
      return compareTo(other) >= 0;
    }
  }

  /** A token as listed: never its secret. */
  public record Token(String id, String project, String name, Role role, String prefix, Instant createdAt,
      Instant expiresAt) {}

  /** A token just created, with the secret the caller must keep. */
  public record Created(Token token, String secret) {}

  /**
   * Who presented a token.
   *
   * @param project the token's project; null for the administrator token
   */
  public record Principal(String tokenId, String project, Role role) {
    public boolean administrator() {
      return project == null;
    }

    /** Whether this token may act on {@code project} with {@code role}. */
    public boolean may(String onProject, Role needed) {
      return administrator() || (project.equals(onProject) && role.includes(needed));
    }
  }

  static final String SECRET_PREFIX = "trb_";
  /** The shortest administrator token accepted at all. */
  public static final int MIN_ADMIN_LENGTH = 16;
  private static final String BY_HASH = "control/tokens/";
  private static final String ADMIN = "control/admin/bootstrap";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SecureRandom RANDOM = new SecureRandom();

  private static final String KEYED = "k-";
  private static final String HMAC = "HmacSHA256";

  private final MetadataStore metadata;
  private final Clock clock;
  private final ProjectStore projects;
  private final byte[] key;
  private final int maxTokens;

  /**
   * @param key the token key (at least 32 bytes), or null for unkeyed SHA-256
   * @param maxTokens how many tokens one project may have (429 beyond)
   */
  TokenStore(MetadataStore metadata, Clock clock, ProjectStore projects, byte[] key, int maxTokens) {
    if (key != null && key.length < 32) {
      throw new IllegalArgumentException("a token key needs at least 32 bytes");
    }
    this.metadata = metadata;
    this.clock = clock;
    this.projects = projects;
    this.key = key == null ? null : key.clone();
    this.maxTokens = maxTokens;
  }

  /**
   * Makes {@code secret} the administrator token (replacing any earlier one); with null, keeps the
   * stored one, or creates one if there is none.
   *
   * @return the secret of a token created now, to be shown once; empty if none was created
   */
  public Optional<String> bootstrapAdmin(String secret) {
    if (secret != null && secret.length() < MIN_ADMIN_LENGTH) {
      throw new InvalidRequestException("TRIBUTARY_ADMIN_TOKEN", "must have at least " + MIN_ADMIN_LENGTH
          + " characters");
    }
    while (true) {
      Optional<Item> current = metadata.get(ADMIN);
      if (secret == null && current.isPresent()) {
        return Optional.empty();
      }
      String s = secret != null ? secret : newSecret();
      try {
        metadata.put(ADMIN, adminEntry(s), current.map(Item::version).orElse(0L));
        return secret == null ? Optional.of(s) : Optional.empty();
      } catch (io.tributary.scheduler.metadata.ConflictException e) {
        // another replica starting on the same store wrote it meanwhile: look again
      }
    }
  }

  /**
   * Creates a token of {@code project}.
   *
   * @throws InvalidRequestException if the name is empty or longer than 128 characters, or the
   *     expiry is not in the future
   * @throws NotFoundException if the project does not exist
   */
  public Created create(String project, String name, Role role, Instant expiresAt) {
    projects.checkExists(project);
    if (maxTokens != Integer.MAX_VALUE) {
      int n = metadata.queryAll(listed(project, "")).size();
      if (n >= maxTokens) {
        throw new QuotaExceededException("tokens", String.valueOf(maxTokens), String.valueOf(n + 1), null, true,
            "project '" + project + "' has " + n + " tokens, its quota; revoke one first");
      }
    }
    if (name == null || name.isBlank() || name.length() > 128) {
      throw new InvalidRequestException("name", "must have 1 to 128 characters");
    }
    Instant now = clock.instant();
    if (expiresAt != null && !expiresAt.isAfter(now)) {
      throw new InvalidRequestException("expiresAt", "must be in the future");
    }
    String secret = newSecret();
    String id = "tok_" + HexFormat.of().formatHex(randomBytes(6));
    Token token = new Token(id, project, name, role, secret.substring(0, SECRET_PREFIX.length() + 6), now, expiresAt);
    String hash = hash(secret);
    ObjectNode n = encode(token).put("hash", hash);
    byte[] body = n.toString().getBytes(StandardCharsets.UTF_8);
    metadata.put(BY_HASH + hash, body, 0);
    metadata.put(listed(project, id), body, 0);
    return new Created(token, secret);
  }

  /** A page of {@code project}'s tokens, in id order. */
  public TokenPage list(String project, String pageToken, int limit) {
    projects.checkExists(project);
    Page page = metadata.query(listed(project, ""), Optional.ofNullable(pageToken), limit);
    List<Token> tokens = new ArrayList<>();
    for (Item item : page.items()) {
      tokens.add(decode(item));
    }
    return new TokenPage(tokens, page.continuation().orElse(null));
  }

  /** A page of tokens; {@code nextPageToken} null on the last page. */
  public record TokenPage(List<Token> tokens, String nextPageToken) {}

  /** Revokes token {@code id} of {@code project}: its secret stops working at once. */
  public void revoke(String project, String id) {
    projects.checkExists(project);
    Item item = metadata.get(listed(project, id))
        .orElseThrow(() -> new NotFoundException("token '" + id + "' does not exist in project '" + project + "'"));
    String hash = JobStore.readJson(item).path("hash").asText();
    metadata.get(BY_HASH + hash).ifPresent(i -> delete(i));
    delete(item);
  }

  /** Revokes every token of {@code project} (after the project was deleted). */
  public void revokeAll(String project) {
    for (Item item : metadata.queryAll(listed(project, ""))) {
      String hash = JobStore.readJson(item).path("hash").asText();
      metadata.get(BY_HASH + hash).ifPresent(this::delete);
      delete(item);
    }
  }

  /** Who {@code secret} belongs to; empty if it is unknown, revoked or expired. */
  public Optional<Principal> authenticate(String secret) {
    if (secret == null || secret.length() > 512 || !secret.startsWith(SECRET_PREFIX) && secret.length() < MIN_ADMIN_LENGTH) {
      return Optional.empty();
    }
    String hash = hash(secret);
    Optional<Item> admin = metadata.get(ADMIN);
    if (admin.isPresent() && isAdmin(admin.get(), secret, hash)) {
      return Optional.of(new Principal("admin", null, Role.ADMIN));
    }
    Optional<Item> found = metadata.get(BY_HASH + hash);
    if (found.isEmpty() && key != null) {
      found = metadata.get(BY_HASH + sha256(secret)).map(legacy -> migrate(legacy, hash));
    }
    return found.map(TokenStore::decode)
        .filter(t -> t.expiresAt() == null || t.expiresAt().isAfter(clock.instant()))
        .map(t -> new Principal(t.id(), t.project(), t.role()));
  }

  /** Whether {@code secret} is the administrator's; an unkeyed entry of an older version is rewritten keyed. */
  private boolean isAdmin(Item entry, String secret, String hash) {
    JsonNode n = JobStore.readJson(entry);
    String stored = n.path("hash").asText();
    boolean keyedEntry = n.path("alg").asText().equals("hmac-sha256");
    String expected = keyedEntry || key == null ? hash : sha256(secret);
    boolean match = MessageDigest.isEqual(stored.getBytes(StandardCharsets.US_ASCII),
        expected.getBytes(StandardCharsets.US_ASCII));
    if (match && !keyedEntry && key != null) {
      try {
        metadata.put(ADMIN, adminEntry(secret), entry.version());
      } catch (ConflictException e) {
        // rewritten meanwhile
      }
    }
    return match;
  }

  private byte[] adminEntry(String secret) {
    ObjectNode n = JSON.createObjectNode().put("hash", hash(secret));
    if (key != null) {
      n.put("alg", "hmac-sha256");
    }
    return n.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Moves a token found by its unkeyed SHA-256 under its keyed hash; returns the entry to use. */
  private Item migrate(Item legacy, String keyedHash) {
    try {
      ObjectNode n = (ObjectNode) JobStore.readJson(legacy);
      n.put("hash", keyedHash);
      byte[] body = n.toString().getBytes(StandardCharsets.UTF_8);
      metadata.put(BY_HASH + keyedHash, body, 0);
      String listedKey = listed(n.path("project").asText(), n.path("id").asText());
      metadata.get(listedKey).ifPresent(i -> metadata.put(listedKey, body, i.version()));
      delete(legacy);
      return metadata.get(BY_HASH + keyedHash).orElse(legacy);
    } catch (RuntimeException e) {
      return legacy; // migrated by someone else meanwhile, or the store refused: the old entry still holds
    }
  }

  private void delete(Item item) {
    try {
      metadata.delete(item.key(), item.version());
    } catch (ConflictException e) {
      // revoked meanwhile
    }
  }

  private static String listed(String project, String id) {
    return "projects/" + project + "/tokens/" + id;
  }

  private static ObjectNode encode(Token t) {
    ObjectNode n = JSON.createObjectNode().put("id", t.id()).put("project", t.project()).put("name", t.name())
        .put("role", t.role().apiName()).put("prefix", t.prefix()).put("createdAt", t.createdAt().toString());
    if (t.expiresAt() != null) {
      n.put("expiresAt", t.expiresAt().toString());
    }
    return n;
  }

  private static Token decode(Item item) {
    JsonNode n = JobStore.readJson(item);
    return new Token(n.path("id").asText(), n.path("project").asText(), n.path("name").asText(),
        Role.parse(n.path("role").asText()), n.path("prefix").asText(), Instant.parse(n.path("createdAt").asText()),
        n.hasNonNull("expiresAt") ? Instant.parse(n.path("expiresAt").asText()) : null);
  }

  private static String newSecret() {
    return SECRET_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(randomBytes(24));
  }

  private static byte[] randomBytes(int n) {
    byte[] b = new byte[n];
    RANDOM.nextBytes(b);
    return b;
  }

  /** The hash a secret is stored and found by: keyed when this store has a key. */
  String hash(String secret) {
    if (key == null) {
      return sha256(secret);
    }
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(new SecretKeySpec(key, HMAC));
      return KEYED + HexFormat.of().formatHex(mac.doFinal(secret.getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  static String sha256(String secret) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
