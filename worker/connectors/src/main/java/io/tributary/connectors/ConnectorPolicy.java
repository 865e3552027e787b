package io.tributary.connectors;

import io.tributary.connect.Endpoints;
import io.tributary.connect.StorageRoots;
import java.util.Objects;

/**
 * What the connectors of one process may reach, chosen by the composition root: the directories
 * file sources and sinks may use and the endpoints clients may connect to. Connectors check it
 * when they open a file or build a client, whatever the spec's validation found before.
 *
 * @param files where file sources and sinks may read and write
 * @param endpoints where Kafka clients may connect
 */
public record ConnectorPolicy(StorageRoots files, Endpoints endpoints) {
  private static final ConnectorPolicy UNRESTRICTED = new ConnectorPolicy(StorageRoots.unrestricted(), Endpoints.any());

  public ConnectorPolicy {
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(endpoints, "endpoints");
  }

  /** Everything allowed: {@code tributary run}, tests. Client settings are checked all the same. */
  public static ConnectorPolicy unrestricted() {
    return UNRESTRICTED;
  }
}
