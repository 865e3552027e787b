package io.tributary.scheduler.lifecycle;

/**
 * Where the control plane keeps its items in the metadata store (see {@link
 * io.tributary.scheduler.metadata.Keys}: a query stays inside the group of a key's first two
 * segments).
 *
 * <pre>
 *   control/projects/&lt;project&gt;                   a project                 (group control/projects)
 *   projects/&lt;project&gt;/jobs/&lt;name&gt;              a job's record; its version is the ETag
 *   projects/&lt;project&gt;/status/&lt;name&gt;            its observed state, written by the control plane
 *   projects/&lt;project&gt;/events/&lt;name&gt;/&lt;seq&gt;      its lifecycle events, seq zero-padded to 19 digits
 *   jobs/&lt;project&gt;--&lt;name&gt;/...                  its checkpoints ({@link io.tributary.scheduler.checkpoint.CheckpointStore})
 * </pre>
 *
 * <p>A project's jobs, statuses and events share its group (one DynamoDB partition); the checkpoint
 * items of each job have their own group.
 */
final class ControlKeys {
  static final String PROJECTS = "control/projects/";

  private ControlKeys() {}

  static String project(String project) {
    return PROJECTS + project;
  }

  static String jobs(String project) {
    return "projects/" + project + "/jobs/";
  }

  static String job(String project, String name) {
    return jobs(project) + name;
  }

  static String status(String project, String name) {
    return "projects/" + project + "/status/" + name;
  }

  static String events(String project, String name) {
    return "projects/" + project + "/events/" + name + "/";
  }

  static String event(String project, String name, long seq) {
    return events(project, name) + String.format("%019d", seq);
  }
}
