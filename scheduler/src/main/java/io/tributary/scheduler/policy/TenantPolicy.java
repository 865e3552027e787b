package io.tributary.scheduler.policy;

import io.tributary.connect.Endpoints;
import io.tributary.connect.StorageRoots;
import java.util.Objects;

/**
 * What the jobs of one project may reach and use, chosen by the composition root for the whole
 * control plane: the file directories ({@code <root>/<project>}), the endpoints connectors may
 * connect to, and the quotas. The connectors get the same directories and endpoints from the
 * composition root and check them again as they open.
 *
 * @param files per-project file directories, or unrestricted
 * @param endpoints the endpoint allow-list
 * @param quotas per-project limits
 */
public record TenantPolicy(StorageRoots files, Endpoints endpoints, Quotas quotas) {
  private static final TenantPolicy OPEN = new TenantPolicy(StorageRoots.unrestricted(), Endpoints.any(),
      Quotas.UNLIMITED);

  public TenantPolicy {
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(endpoints, "endpoints");
    Objects.requireNonNull(quotas, "quotas");
  }

  /** Nothing restricted: a control plane whose callers are trusted (tests, benchmarks). */
  public static TenantPolicy open() {
    return OPEN;
  }

  public TenantPolicy withQuotas(Quotas q) {
    return new TenantPolicy(files, endpoints, q);
  }
}
