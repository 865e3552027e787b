/**
 * Worker processes and the pools that run attempts on them.
 *
 * <p>The control protocol travels over gRPC: one bidirectional stream per worker ({@link ControlRpc}),
 * each message one {@link Envelope} written as JSON by {@link io.tributary.protocol.ProtocolCodec}.
 * A worker says hello, answers the control plane's challenge with an HMAC of it under the cluster
 * secret, announces its slots and data address, then heartbeats, reports and answers requests
 * (the {@link io.tributary.protocol.ControlMessage}s). {@link RemoteWorkerPool} is the control
 * plane's end; {@link WorkerProcess} the worker's; {@link LocalProcessWorkers} starts and supervises
 * worker processes on this host.
 */
package io.tributary.worker.remote;
