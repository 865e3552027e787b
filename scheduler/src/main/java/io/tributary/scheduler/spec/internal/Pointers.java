package io.tributary.scheduler.spec.internal;

/** JSON pointers (RFC 6901). */
public final class Pointers {
  private Pointers() {}

  /** The pointer to member {@code token} (a field name or an array index) of {@code parent}. */
  public static String child(String parent, String token) {
    return parent + "/" + token.replace("~", "~0").replace("/", "~1");
  }

  /** The pointer to element {@code index} of the array at {@code parent}. */
  public static String child(String parent, int index) {
    return parent + "/" + index;
  }
}
