package io.tributary.worker.pool;

import static io.tributary.protocol.Causes.causedBy;

import io.tributary.connect.AccessRefusedException;
import io.tributary.connect.ConnectorException;
import io.tributary.expr.ExpressionException;
import io.tributary.expr.internal.EvalException;
import io.tributary.protocol.Failure;
import io.tributary.worker.task.RestoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Classifies what a task or a deployment threw into a {@link Failure} (see there for the classes),
 * here where the runtime's exceptions are known.
 */
public final class Failures {
  private Failures() {}

  /** The failure {@code error} stands for; its message is {@code error}'s. */
  public static Failure classify(Throwable error) {
    Throwable t = unwrap(error);
    String message = error.getMessage() != null ? error.getMessage() : t.toString();
    return classify(t, message);
  }

  /** The failure of task {@code taskName}, which threw {@code error}. */
  public static Failure ofTask(String taskName, Throwable error) {
    Throwable t = unwrap(error);
    String cause = t.getMessage() != null ? t.getMessage() : t.toString();
    return classify(t, "task " + taskName + " failed: " + cause);
  }

  private static Failure classify(Throwable t, String message) {
    if (causedBy(t, RestoreException.class) || causedBy(t, ExpressionException.class) || causedBy(t, EvalException.class)
        || causedBy(t, AccessRefusedException.class) || kafkaMisconfigured(t)) {
      return new Failure(Failure.Domain.USER, false, message);
    }
    if (causedBy(t, IOException.class) || causedBy(t, UncheckedIOException.class) || kafkaRetriable(t)) {
      return new Failure(Failure.Domain.EXTERNAL, true, message);
    }
    if (t instanceof ConnectorException) {
      return new Failure(Failure.Domain.USER, false, message);
    }
    return new Failure(Failure.Domain.INTERNAL, true, message);
  }

  private static Throwable unwrap(Throwable t) {
    while ((t instanceof JobFailedException || t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  /** A Kafka client refusing its configuration (a bad setting, an unknown class): the user's to fix. */
  private static boolean kafkaMisconfigured(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      String name = c.getClass().getName();
      if (name.equals("org.apache.kafka.common.config.ConfigException")
          || name.equals("org.apache.kafka.common.errors.InvalidConfigurationException")
          || name.equals("org.apache.kafka.common.errors.SaslAuthenticationException")
          || name.equals("org.apache.kafka.common.errors.TopicAuthorizationException")
          || name.equals("org.apache.kafka.common.errors.ClusterAuthorizationException")) {
        return true;
      }
    }
    return false;
  }

  private static boolean kafkaRetriable(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c.getClass().getName().startsWith("org.apache.kafka.")) {
        return !(c instanceof CancellationException);
      }
    }
    return false;
  }
}
