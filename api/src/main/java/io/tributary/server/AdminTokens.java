package io.tributary.server;

import io.tributary.scheduler.lifecycle.TokenStore;

/**
 * Which administrator tokens a server accepts. Shorter than {@value TokenStore#MIN_ADMIN_LENGTH}
 * characters: never. Weak (shorter than {@value #STRONG_LENGTH} characters, or fewer than
 * {@value #STRONG_DISTINCT} distinct characters): only in dev mode, with a warning; a server in dev
 * mode is one started with {@code --dev} ({@code TRIBUTARY_DEV_MODE=true}) or one that listens on
 * loopback only (the default), which only processes of this machine can reach.
 */
final class AdminTokens {
  static final int STRONG_LENGTH = 32;
  static final int STRONG_DISTINCT = 12;

  private AdminTokens() {}

  /**
   * @return a warning to print, or null
   * @throws IllegalArgumentException with one line saying what is wrong with the token
   */
  static String check(String token, boolean devMode) {
    if (token == null) {
      return null;
    }
    if (token.length() < TokenStore.MIN_ADMIN_LENGTH) {
      throw new IllegalArgumentException("TRIBUTARY_ADMIN_TOKEN is too short (" + token.length()
          + " characters): use at least " + STRONG_LENGTH + " random characters (" + TokenStore.MIN_ADMIN_LENGTH
          + " in dev mode), or unset it and the server creates one");
    }
    if (!weak(token)) {
      return null;
    }
    if (!devMode) {
      throw new IllegalArgumentException("TRIBUTARY_ADMIN_TOKEN is weak: a server that other machines can reach "
          + "needs at least " + STRONG_LENGTH + " characters with " + STRONG_DISTINCT + " distinct ones (for "
          + "example: openssl rand -base64 32); listen on loopback only, or start with --dev, to use this one");
    }
    return "warning: TRIBUTARY_ADMIN_TOKEN is weak; accepted in dev mode only (the server listens on loopback, or "
        + "--dev): use at least " + STRONG_LENGTH + " random characters for a server others can reach";
  }

  static boolean weak(String token) {
    return token.length() < STRONG_LENGTH || token.chars().distinct().count() < STRONG_DISTINCT;
  }
}
