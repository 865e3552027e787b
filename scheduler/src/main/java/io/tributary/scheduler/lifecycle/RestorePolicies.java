package io.tributary.scheduler.lifecycle;

import io.tributary.scheduler.master.RestorePolicy;

/** {@link RestorePolicy} as stored and shown: {@code latest}, {@code none}, or the path of a savepoint. */
final class RestorePolicies {
  private RestorePolicies() {}

  static String format(RestorePolicy p) {
    return switch (p.mode()) {
      case LATEST -> "latest";
      case NONE -> "none";
      case PATH -> p.path();
    };
  }

  static RestorePolicy parse(String text) {
    return RestorePolicy.parse(text);
  }
}
