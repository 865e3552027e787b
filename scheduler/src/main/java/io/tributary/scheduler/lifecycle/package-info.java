/**
 * The control plane's job lifecycle, without HTTP: what the REST API and the CLI
 * call. {@link io.tributary.scheduler.lifecycle.JobManager} is the entry point: it applies specs, runs the
 * actions on jobs (stop, resume, rescale, restart, savepoint, delete), and answers reads with
 * records ({@link io.tributary.scheduler.lifecycle.JobView}, {@link io.tributary.scheduler.lifecycle.JobEvent}, {@link
 * io.tributary.scheduler.lifecycle.CheckpointRef}). Errors are {@link io.tributary.scheduler.lifecycle.ControlException}s,
 * one subclass per HTTP status, and {@link io.tributary.scheduler.spec.InvalidSpecException} for specs.
 *
 * <p>A job's record ({@link io.tributary.scheduler.lifecycle.JobRecord}, kept by {@link
 * io.tributary.scheduler.lifecycle.JobStore}) holds what the user wants: the spec and the {@link
 * io.tributary.scheduler.lifecycle.DesiredState}. The manager reconciles the job's {@link
 * io.tributary.scheduler.lifecycle.ObservedState}, an explicit state machine, towards it; each job runs on its
 * own thread in this process. Everything is kept in the metadata store (keys in {@code
 * ControlKeys}) and the checkpoint object store under one data directory, so a new manager over the
 * same directory takes every job over.
 */
package io.tributary.scheduler.lifecycle;
