/**
 * The data plane between worker processes (contract C2 over TCP): Netty connections carrying the
 * exchange's serialized buffers with credit-based flow control.
 *
 * <p>A sender worker opens one connection per (attempt, receiving worker), introduced by the
 * attempt's data token ({@link Frames#HELLO}); the receiving worker accepts only tokens of attempts
 * deployed on it. Each channel (one sender subtask to one receiver subtask of an exchange,
 * numbered identically on both sides from the deployment) is opened on that connection; the
 * receiver grants {@value NetTransport#EXCLUSIVE_CREDITS} exclusive credits per channel and lends
 * up to {@value NetTransport#FLOATING_CREDITS} floating ones per input gate to channels whose sender
 * reports a backlog. A sender without credit keeps its buffers (and stops taking input), so what is
 * in flight stays within the credits and nothing is dropped. A connection lost before a channel
 * delivered its end of input fails the tasks on both ends.
 */
package io.tributary.worker.net;
