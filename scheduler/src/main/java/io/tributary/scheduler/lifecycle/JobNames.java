package io.tributary.scheduler.lifecycle;

import java.util.regex.Pattern;

/**
 * Names of projects and jobs, and the internal name a job runs under.
 *
 * <p>Both are DNS labels (RFC 1123, as Kubernetes names are): 1 to 63 lower-case letters, digits
 * and {@code '-'}, starting with a letter and ending with a letter or digit. A project name also
 * holds no {@code "--"}.
 *
 * <p>The internal name, {@code <project>--<name>}, names the job's plan, its checkpoint keys in the
 * metadata store ({@code jobs/<internal>/...}) and its objects in checkpoint storage
 * ({@code <internal>/checkpoints/...}, {@code <internal>/savepoints/...}). It is unique across
 * projects: the first {@code "--"} in it ends the project's name, since a project name holds none and
 * a job name starts with a letter. So two projects with a job of the same name never share
 * checkpoints, and a savepoint of one cannot be restored into the other.
 */
public final class JobNames {
  /** The longest name. */
  public static final int MAX_LENGTH = 63;

  private static final Pattern LABEL = Pattern.compile("[a-z]([a-z0-9-]*[a-z0-9])?");
  private static final String SEPARATOR = "--";

  private JobNames() {}

  /**
   * Returns {@code name} if it is a valid job name.
   *
   * @throws InvalidRequestException naming the field {@code name}
   */
  public static String checkJob(String name) {
    return checkLabel("name", name, "job");
  }

  /**
   * Returns {@code project} if it is a valid project name.
   *
   * @throws InvalidRequestException naming the field {@code project}
   */
  public static String checkProject(String project) {
    checkLabel("project", project, "project");
    if (project.contains(SEPARATOR)) {
      throw new InvalidRequestException("project", "a project name must not contain '--', got '" + project + "'");
    }
    return project;
  }

  /** The name the job runs under: {@code <project>--<name>}, unique across projects. */
  public static String internal(String project, String name) {
    return checkProject(project) + SEPARATOR + checkJob(name);
  }

  private static String checkLabel(String field, String value, String what) {
    if (value == null || value.isEmpty()) {
      throw new InvalidRequestException(field, "a " + what + " name is required");
    }
    if (value.length() > MAX_LENGTH || !LABEL.matcher(value).matches()) {
      throw new InvalidRequestException(field, "'" + value + "' is not a valid " + what + " name: use 1 to "
          + MAX_LENGTH + " lower-case letters, digits and '-', starting with a letter and ending with a letter or digit");
    }
    return value;
  }
}
