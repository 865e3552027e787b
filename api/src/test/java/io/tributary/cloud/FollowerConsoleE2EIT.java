package io.tributary.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.boot.ControlTests;
import io.tributary.boot.ServerConfiguration;
import io.tributary.scheduler.lifecycle.ObservedState;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.server.ConsoleE2EIT;
import io.tributary.server.TributaryServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console works against any replica: two servers on DynamoDB (dynalite) and S3 (S3Proxy), the
 * live example applied, and the console's end-to-end run ({@link ConsoleE2EIT#drive}) in Chromium
 * against the replica that does not lead — the live example (where its tasks run, as the leader
 * stored it), a job created in the editor with its
 * plan preview, its moving charts (metrics the follower forwards to the leader), a stop with a
 * savepoint and a resume (forwarded too).
 */
@Timeout(420)
class FollowerConsoleE2EIT {
  private static final String ADMIN = "cloud-console-it-admin-token-0123456789";
  private static CloudStores stores;

  @TempDir
  Path tmp;

  @BeforeAll
  static void startStores() throws Exception {
    stores = CloudStores.start();
  }

  @AfterAll
  static void stopStores() throws Exception {
    if (stores != null) {
      stores.close();
    }
  }

  @Test
  void theWholeConsoleRunWorksAgainstAFollower() throws Exception {
    ServerConfiguration cloud = stores.configuration("console", "tributary-console", "3s");
    try (TributaryServer a = TributaryServer.start(config(tmp.resolve("a"), cloud), ControlTests.settings());
        TributaryServer b = TributaryServer.start(config(tmp.resolve("b"), cloud), ControlTests.settings())) {
      ControlTests.await("one replica leads", Duration.ofSeconds(30),
          () -> a.jobs().leadership().leading() || b.jobs().leadership().leading());
      TributaryServer leader = a.jobs().leadership().leading() ? a : b;
      TributaryServer follower = leader == a ? b : a;
      String live = Files.readString(ConsoleE2EIT.LIVE_EXAMPLE);
      leader.jobs().apply("default", JobSpecs.parse(live).name(), live, null);
      ControlTests.awaitState(leader.jobs(), "default", "live-auctions", ObservedState.RUNNING);
      assertThat(follower.jobs().get("default", "live-auctions").tasks()).as("where its tasks run, as stored")
          .isNotEmpty().isEqualTo(leader.jobs().get("default", "live-auctions").tasks());

      ConsoleE2EIT.drive(follower.url().toString(), ADMIN, Path.of("target/screenshots-follower").toAbsolutePath(),
          tmp.resolve("e2e.log"));

      assertThat(follower.jobs().leadership().leading()).as("the console ran against a follower throughout")
          .isFalse();
      assertThat(leader.jobs().leadership().leading()).isTrue();
    }
  }

  private static TributaryServer.Config config(Path data, ServerConfiguration cloud) {
    return new TributaryServer.Config(data, 0, ADMIN, List.of(data.resolve("files"))).withStores(cloud)
        .withQuotas(io.tributary.scheduler.policy.Quotas.DEFAULTS.withMinCheckpointInterval(Duration.ofMillis(100)));
  }
}
