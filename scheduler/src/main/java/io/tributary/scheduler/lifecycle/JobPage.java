package io.tributary.scheduler.lifecycle;

import java.util.List;

/**
 * One page of a project's jobs, in name order.
 *
 * @param nextPageToken pass it to get the next page; null on the last page
 */
public record JobPage(List<JobView> jobs, String nextPageToken) {
  public JobPage {
    jobs = List.copyOf(jobs);
  }
}
