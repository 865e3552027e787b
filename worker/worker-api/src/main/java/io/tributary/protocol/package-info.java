/**
 * The worker protocol: the only thing the control plane knows of workers.
 *
 * <p>The control plane places a job's attempt ({@link AttemptDeployment}: one {@link
 * TaskDeployment} per subtask, with its key groups, splits, restore handles and the worker that
 * runs it) and hands it to a {@link WorkerPool}; workers run the tasks and send {@link
 * WorkerReport}s back (checkpoint acknowledgements with their state handles, final states, ends and
 * failures, metrics, sampled output). Every message is a plain value that {@link ProtocolCodec}
 * writes as JSON, and every message names its attempt ({@link AttemptId}), so a report of an older
 * attempt is recognised and ignored (fencing). See {@code docs/design.md}, "Worker protocol".
 */
package io.tributary.protocol;
