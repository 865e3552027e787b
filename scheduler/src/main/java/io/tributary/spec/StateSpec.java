package io.tributary.spec;

/**
 * Keyed state settings.
 *
 * @param backend {@code heap} (default) or {@code forst}
 */
public record StateSpec(String backend) {
  public static final StateSpec DEFAULT = new StateSpec("heap");
}
