package io.tributary.scheduler.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.scheduler.metadata.ConflictException;
import io.tributary.scheduler.metadata.EmbeddedMetadataStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Job records: round trip, versions as ETags, If-Match, stable paging. */
class JobStoreTest {
  private static final Instant T0 = Instant.parse("2025-01-02T03:04:05Z");

  @TempDir
  Path tmp;

  private EmbeddedMetadataStore metadata;
  private JobStore store;

  @BeforeEach
  void open() {
    metadata = new EmbeddedMetadataStore(tmp.resolve("metadata"));
    store = new JobStore(metadata);
  }

  @AfterEach
  void close() {
    metadata.close();
  }

  @Test
  void aRecordSurvivesTheStoreWithEveryFieldAndItsVersion() {
    JobRecord created = store.put(JobRecord.create("default", "clicks", "name: clicks\n", "sha256:1", T0), 0);
    assertThat(created.version()).isEqualTo(1);
    JobRecord changed = store.put(created.withSpec("name: clicks # v2\n", "sha256:2", 3,
            java.util.Map.of("per-key", 5, "clicks", 1), T0.plusSeconds(1))
        .withDesired(DesiredState.STOPPED, new RestorePolicy(RestorePolicy.Mode.PATH, "default--clicks/savepoints/sp-4"),
            T0.plusSeconds(2)), created.version());
    assertThat(changed.version()).isEqualTo(2);

    metadata.close();
    metadata = new EmbeddedMetadataStore(tmp.resolve("metadata"));
    JobRecord read = new JobStore(metadata).get("default", "clicks").orElseThrow();
    assertThat(read).isEqualTo(changed);
    assertThat(read.generation()).isEqualTo(2);
    assertThat(read.parallelism()).isEqualTo(3);
    assertThat(read.stageParallelism()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("per-key", 5, "clicks", 1));
    assertThat(read.restore().path()).isEqualTo("default--clicks/savepoints/sp-4");
    assertThat(read.createdAt()).isEqualTo(T0);
    assertThat(read.updatedAt()).isEqualTo(T0.plusSeconds(2));
    assertThat(read.internalName()).isEqualTo("default--clicks");
  }

  @Test
  void aWriteOverAStaleVersionIsRefused() {
    JobRecord v1 = store.put(JobRecord.create("default", "clicks", "a", "sha256:1", T0), 0);
    store.put(v1.withParallelism(2, T0), v1.version());
    assertThatThrownBy(() -> store.put(v1.withParallelism(3, T0), v1.version()))
        .isInstanceOf(ConflictException.class);
    assertThatThrownBy(() -> store.put(JobRecord.create("default", "clicks", "a", "sha256:1", T0), 0))
        .isInstanceOf(ConflictException.class);
    assertThat(store.get("default", "clicks").orElseThrow().parallelism()).isEqualTo(2);
  }

  @Test
  void ifMatchHoldsOnlyForTheCurrentVersionAndZeroMeansAbsent() {
    JobRecord v1 = store.put(JobRecord.create("default", "clicks", "a", "sha256:1", T0), 0);
    Optional<JobRecord> current = Optional.of(v1);
    JobStore.checkIfMatch("job", null, current);
    JobStore.checkIfMatch("job", 1L, current);
    JobStore.checkIfMatch("job", 0L, Optional.empty());
    JobStore.checkIfMatch("job", null, Optional.empty());
    assertThatThrownBy(() -> JobStore.checkIfMatch("job 'clicks'", 2L, current))
        .isInstanceOfSatisfying(PreconditionFailedException.class, e -> {
          assertThat(e.expectedVersion()).isEqualTo(2);
          assertThat(e.actualVersion()).isEqualTo(1);
          assertThat(e.getMessage()).contains("job 'clicks'").contains("version 2").contains("version 1");
        });
    assertThatThrownBy(() -> JobStore.checkIfMatch("job", 0L, current)).isInstanceOf(PreconditionFailedException.class);
    assertThatThrownBy(() -> JobStore.checkIfMatch("job", 1L, Optional.empty()))
        .isInstanceOfSatisfying(PreconditionFailedException.class, e -> assertThat(e.actualVersion()).isZero());
  }

  @Test
  void pagesListEveryJobOnceInNameOrderWhileJobsComeAndGo() {
    for (String name : List.of("d", "b", "a", "e", "c")) {
      store.put(JobRecord.create("p", name, name, "sha256:" + name, T0), 0);
    }
    store.put(JobRecord.create("other", "a0", "x", "sha256:x", T0), 0);
    List<String> seen = new ArrayList<>();
    JobStore.Listing page = store.list("p", null, 2);
    seen.addAll(names(page));
    store.put(JobRecord.create("p", "aa", "aa", "sha256:aa", T0), 0); // before the cursor: not seen
    JobRecord c = store.get("p", "c").orElseThrow();
    store.delete("p", "c", c.version()); // after the cursor: not seen
    while (page.nextPageToken() != null) {
      page = store.list("p", page.nextPageToken(), 2);
      seen.addAll(names(page));
    }
    assertThat(seen).containsExactly("a", "b", "d", "e");
  }

  @Test
  void aBadPageSizeOrTokenNamesTheParameter() {
    assertThatThrownBy(() -> store.list("p", null, 0))
        .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("limit"));
    assertThatThrownBy(() -> store.list("p", null, 1001))
        .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("limit"));
    assertThatThrownBy(() -> store.list("p", "projects/q/jobs/x", 10))
        .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("pageToken"));
  }

  private static List<String> names(JobStore.Listing page) {
    return page.records().stream().map(JobRecord::name).toList();
  }
}
