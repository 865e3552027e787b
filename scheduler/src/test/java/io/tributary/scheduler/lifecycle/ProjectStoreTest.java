package io.tributary.scheduler.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.scheduler.metadata.EmbeddedMetadataStore;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Projects: {@code default} always exists; names are DNS labels; creation is once. */
class ProjectStoreTest {
  @TempDir
  Path tmp;

  @Test
  void theDefaultProjectExistsAndOthersAreCreatedOnce() {
    try (EmbeddedMetadataStore metadata = new EmbeddedMetadataStore(tmp)) {
      ProjectStore projects = new ProjectStore(metadata, Clock.systemUTC());
      assertThat(projects.exists(ProjectStore.DEFAULT)).isTrue();
      projects.create("team-b");
      projects.create("team-a");
      assertThat(projects.list()).extracting(Project::name).containsExactly("default", "team-a", "team-b");
      assertThatThrownBy(() -> projects.create("team-a")).isInstanceOfSatisfying(StateConflictException.class,
          e -> assertThat(e.getMessage()).contains("already exists"));
      assertThatThrownBy(() -> projects.create("Team_C")).isInstanceOfSatisfying(InvalidRequestException.class,
          e -> assertThat(e.field()).isEqualTo("project"));
      assertThatThrownBy(() -> projects.checkExists("team-c")).isInstanceOf(NotFoundException.class)
          .hasMessageContaining("team-c");
      assertThat(new ProjectStore(metadata, Clock.systemUTC()).list()).hasSize(3);
    }
  }
}
