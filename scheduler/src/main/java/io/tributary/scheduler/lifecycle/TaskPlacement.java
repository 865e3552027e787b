package io.tributary.scheduler.lifecycle;

/**
 * One task of a job's current attempt and the worker that runs it.
 *
 * @param stage the stage's name
 * @param worker the worker's id ({@code in-process} for the control plane's own process)
 */
public record TaskPlacement(int stageId, int subtask, String stage, String worker) {}
