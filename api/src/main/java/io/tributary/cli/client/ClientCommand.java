package io.tributary.cli.client;

import io.tributary.client.ApiException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;

/**
 * A command that talks to a server: it prints its result on stdout, or one line {@code tributary:
 * <why>} on stderr and returns an exit code from {@link ExitCodes}; never a stack trace.
 */
abstract class ClientCommand implements Callable<Integer> {
  @Mixin
  ServerOptions options;

  @Override
  public final Integer call() {
    ServerConnection server = null;
    try {
      server = options.connect();
      return run(server, new Output(options.output()));
    } catch (ApiException e) {
      return fail(server.failure(e, pointerPrefix(), file()));
    } catch (CliFailure f) {
      return fail(f);
    } catch (RuntimeException e) {
      return fail(new CliFailure(ExitCodes.OTHER, "internal error (" + e.getClass().getSimpleName() + "): "
          + e.getMessage()));
    }
  }

  /** Does the work; a failed call may escape as {@link ApiException}. */
  abstract int run(ServerConnection server, Output out) throws ApiException;

  /** The prefix of field pointers that the user's input does not have (see {@link Problems#describe}). */
  String pointerPrefix() {
    return "";
  }

  /** The user's file the request carried, to name in its errors; null when none. */
  String file() {
    return null;
  }

  static int fail(CliFailure f) {
    return f.report();
  }
}
