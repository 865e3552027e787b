package io.tributary.worker.task;

import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.TaskDeployment;
import io.tributary.worker.exchange.InboundChannel;
import io.tributary.worker.exchange.InputGate;
import io.tributary.worker.exchange.OutboundChannel;

/**
 * Channels to and from tasks on other workers. Channels are numbered the same way on every worker
 * from the deployment (exchange by exchange in plan order, receiver by receiver, sender by sender),
 * so both ends of a channel agree on its id.
 */
public interface Transport {
  /** The sending end of channel {@code id}, whose receiver runs on another worker. */
  OutboundChannel outbound(AttemptDeployment deployment, long id, TaskDeployment receiver);

  /** The receiving end of channel {@code id}, delivering into {@code gate} at {@code index}. */
  InboundChannel inbound(AttemptDeployment deployment, long id, InputGate gate, int index);

  /** The attempt is over here: close its channels. */
  void release(io.tributary.protocol.AttemptId attempt);
}
