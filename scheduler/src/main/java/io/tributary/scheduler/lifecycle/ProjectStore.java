package io.tributary.scheduler.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.scheduler.metadata.ConflictException;
import io.tributary.scheduler.metadata.Item;
import io.tributary.scheduler.metadata.MetadataStore;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Projects, at {@code control/projects/<name>}. The project {@value #DEFAULT} always exists: it is
 * created when the store opens. Projects are only created and listed for now. Thread-safe.
 */
public final class ProjectStore {
  /** The project that always exists. */
  public static final String DEFAULT = "default";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final MetadataStore metadata;
  private final Clock clock;

  public ProjectStore(MetadataStore metadata, Clock clock) {
    this.metadata = metadata;
    this.clock = clock;
    if (!exists(DEFAULT)) {
      try {
        create(DEFAULT);
      } catch (StateConflictException e) {
        // created meanwhile
      }
    }
  }

  /**
   * Creates project {@code name}.
   *
   * @throws InvalidRequestException if the name is not valid (field {@code project})
   * @throws StateConflictException if it exists already
   */
  public Project create(String name) {
    JobNames.checkProject(name);
    Project p = new Project(name, clock.instant());
    String body = JSON.createObjectNode().put("name", name).put("createdAt", p.createdAt().toString()).toString();
    try {
      metadata.put(ControlKeys.project(name), body.getBytes(StandardCharsets.UTF_8), 0);
    } catch (ConflictException e) {
      throw new StateConflictException(null, "project '" + name + "' already exists", false);
    }
    return p;
  }

  public boolean exists(String name) {
    return get(name).isPresent();
  }

  public Optional<Project> get(String name) {
    return metadata.get(ControlKeys.project(name)).map(ProjectStore::decode);
  }

  /**
   * Throws {@link NotFoundException} unless project {@code name} exists.
   *
   * @throws InvalidRequestException if the name is not valid (field {@code project})
   */
  public void checkExists(String name) {
    JobNames.checkProject(name);
    if (!exists(name)) {
      throw NotFoundException.project(name);
    }
  }

  /**
   * Deletes project {@code name}, which must have no jobs; revoke its tokens afterwards
   * ({@link TokenStore#revokeAll}).
   *
   * @throws StateConflictException for {@value #DEFAULT}, or a project that still has jobs
   * @throws NotFoundException if it does not exist
   */
  public void delete(String name) {
    JobNames.checkProject(name);
    if (DEFAULT.equals(name)) {
      throw new StateConflictException(null, "project 'default' always exists and cannot be deleted", false);
    }
    Item item = metadata.get(ControlKeys.project(name)).orElseThrow(() -> NotFoundException.project(name));
    if (!metadata.query(ControlKeys.jobs(name), Optional.empty(), 1).items().isEmpty()) {
      throw new StateConflictException(null, "project '" + name + "' still has jobs; delete them first", false);
    }
    try {
      metadata.delete(item.key(), item.version());
    } catch (ConflictException e) {
      throw NotFoundException.project(name);
    }
  }

  /** Every project, in name order. */
  public List<Project> list() {
    return metadata.queryAll(ControlKeys.PROJECTS).stream().map(ProjectStore::decode).toList();
  }

  private static Project decode(Item item) {
    JsonNode n = JobStore.readJson(item);
    return new Project(n.path("name").asText(), Instant.parse(n.path("createdAt").asText()));
  }
}
