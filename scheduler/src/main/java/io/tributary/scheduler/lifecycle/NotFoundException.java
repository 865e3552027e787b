package io.tributary.scheduler.lifecycle;

import io.tributary.protocol.Failure;

/** The project or job named does not exist (404). A user error. */
public final class NotFoundException extends ControlException {
  private static final long serialVersionUID = 1L;

  public NotFoundException(String message) {
    super(message, Failure.Domain.USER, false, null);
  }

  static NotFoundException job(String project, String name) {
    return new NotFoundException("job '" + name + "' does not exist in project '" + project + "'");
  }

  static NotFoundException project(String project) {
    return new NotFoundException("project '" + project + "' does not exist");
  }
}
