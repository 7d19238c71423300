import { KafkaJSError } from 'kafkajs';

/** A message that no number of retries can handle: it goes to the dead-letter topic at once. */
export class PoisonMessage extends Error {
  override readonly name = 'PoisonMessage';
}

/**
 * Thrown out of a delivery that was interrupted by shutdown while it waited: the consumer must not
 * resolve the message's offset, so kafkajs neither commits it nor moves past it, and whoever owns the
 * partition next gets the message again. A KafkaJSError because kafkajs logs any other error thrown by
 * `eachMessage` as a failure, and this one is an expected part of a graceful stop.
 */
export class DeliveryAbandoned extends KafkaJSError {
  override readonly name = 'DeliveryAbandoned';

  constructor(reason: string) {
    super(reason, { retriable: true });
  }
}

/**
 * Failures of the database connection rather than of the message: a PostgreSQL outage must delay
 * messages, never dead-letter them (the relay treats a broker outage the same way). SQLSTATE classes
 * 08 (connection), 53 (insufficient resources), 57P01-57P03 (shutdown, cannot connect now), and the
 * socket errors and pool time-outs node-postgres reports without a SQLSTATE.
 */
export function isConnectionFailure(
  err: unknown,
  opts: { socketErrors: boolean } = { socketErrors: true },
): boolean {
  // A handler's own HTTP or DNS call fails with the same socket codes; only PostgreSQL's marks count there.
  if (err instanceof HandlerFailure) return isConnectionFailure(err.cause, { socketErrors: false });
  const seen = new Set<unknown>();
  let e = err as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown } | undefined;
  while (e && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    const code = typeof e.code === 'string' ? e.code : '';
    if (/^(08|53)/.test(code) || /^57P0[123]$/.test(code)) return true;
    if (
      opts.socketErrors &&
      ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)
    )
      return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
        message,
      )
    )
      return true;
    e = (e.driverError ?? e.cause) as typeof e;
  }
  return false;
}

/** What the handler itself threw, as opposed to the inbox and transaction around it. */
export class HandlerFailure extends Error {
  constructor(override readonly cause: unknown) {
    super((cause as Error)?.message ?? String(cause));
  }
}
