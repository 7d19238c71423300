import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { IHeaders } from 'kafkajs';
import { EventHeader, violations, type TopicContract } from '@platform/messaging';
import { runWithRequestId } from '@platform/observability';
import type { Inbox } from '@platform/outbox';
import type { ConsumerContext, ContractHandler } from './contract-handler';
import { DeliveryAbandoned, HandlerFailure, PoisonMessage, isConnectionFailure } from './consumer.errors';
import type { ConsumerMetrics } from './consumer.metrics';
import { deadLetterMessage, type DeadLetterMessage, type OriginalMessage } from './dead-letter';
import { backoffDelay, type RetryPolicy } from './retry-policy';

export interface Route {
  contract: TopicContract<unknown>;
  handler: ContractHandler<unknown, never>;
  retry: RetryPolicy;
}

export type DeliveryOutcome = 'handled' | 'duplicate' | 'dead-lettered';

/** One line per delivery, for logs and tests; sent after the inbox transaction committed. */
export interface DeliveryReport {
  group: string;
  topic: string;
  partition: number;
  offset: string;
  eventId: string | null;
  outcome: DeliveryOutcome;
  /** Handler runs; 0 for a message refused before the handler ran. */
  attempts: number;
  reason?: string;
}

export interface DeliveryControl {
  /** kafkajs' heartbeat: keeps the member in its group while a message waits out a back-off. */
  heartbeat: () => Promise<void>;
  /** Aborted when the consumer stops: waits end, and the message is left uncommitted. */
  signal: AbortSignal;
}

export interface DeliveryProcessorOptions {
  group: string;
  routes: ReadonlyMap<string, Route>;
  inbox: Pick<Inbox, 'handleOnce'>;
  /** Publishes to the dead-letter topic; rejects when the broker did not take the message. */
  deadLetter: (message: DeadLetterMessage) => Promise<void>;
  metrics: ConsumerMetrics;
  onOutcome?: (report: DeliveryReport) => void;
  log?: (level: 'log' | 'warn' | 'error', msg: string) => void;
}

const tracer = trace.getTracer('@platform/consumer');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Waits longer than this are cut into slices with a heartbeat between, below any session time-out. */
const HEARTBEAT_SLICE_MS = 1000;

function decodeHeaders(h: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) {
    const first = Array.isArray(v) ? v[0] : v;
    if (first !== undefined) out[k] = first.toString();
  }
  return out;
}

interface Decoded {
  event: unknown;
  eventId: string;
  headers: Record<string, string>;
}

/**
 * What happens to one Kafka message, whatever the transport: decode and validate against the topic's
 * contract, run the handler in one transaction with the inbox row (so a redelivery has no second
 * effect), retry a failing handler with bounded exponential back-off, and dead-letter what cannot be
 * handled. It returns only when the message may be committed; it throws when it must not be (stop
 * requested or partition lost while waiting), so the message is delivered again.
 */
export class DeliveryProcessor {
  constructor(private readonly opts: DeliveryProcessorOptions) {
    for (const topic of opts.routes.keys()) opts.metrics.track(opts.group, topic);
  }

  /**
   * The delivery runs in a CONSUMER span that is the child of the trace context in the message's
   * headers (W3C traceparent/tracestate, set by the outbox relay), so the handler's statements, and the
   * events it writes to its own outbox, belong to the trace of the request that caused the message.
   * (No-ops when tracing is off: `@opentelemetry/api` without an SDK.) It also runs as the work of the
   * message's `request-id`, traced or not.
   */
  async process(m: OriginalMessage, control: DeliveryControl): Promise<DeliveryReport> {
    const headers = decodeHeaders(m.headers);
    // The handler's work is the work of the request that caused the message: the events it writes carry
    // that `request-id` (libs/outbox), and its log lines name it.
    return runWithRequestId(headers[EventHeader.RequestId] ?? null, () => this.traced(m, headers, control));
  }

  private async traced(
    m: OriginalMessage,
    headers: Record<string, string>,
    control: DeliveryControl,
  ): Promise<DeliveryReport> {
    // From the headers only: whatever context kafkajs' callback happens to run in is not the parent.
    const parent = propagation.extract(ROOT_CONTEXT, headers);
    // A message without one (the apps' direct health heartbeats, every 15 s from every replica) starts
    // no trace of its own: with tracing on, the relay gives every outbox event a context.
    if (!trace.getSpanContext(parent)) return this.deliver(m, control);
    const span = tracer.startSpan(
      `process ${m.topic}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.operation.type': 'process',
          'messaging.operation.name': 'process',
          'messaging.destination.name': m.topic,
          'messaging.destination.partition.id': String(m.partition),
          'messaging.kafka.offset': Number(m.offset),
          'messaging.consumer.group.name': this.opts.group,
          ...(headers[EventHeader.EventId] ? { 'messaging.message.id': headers[EventHeader.EventId] } : {}),
        },
      },
      parent,
    );
    try {
      const report = await context.with(trace.setSpan(parent, span), () => this.deliver(m, control));
      span.setAttribute('platform.delivery.outcome', report.outcome);
      span.setAttribute('platform.delivery.attempts', report.attempts);
      if (report.outcome === 'dead-lettered')
        span.setStatus({ code: SpanStatusCode.ERROR, message: report.reason ?? 'dead-lettered' });
      return report;
    } catch (err) {
      // Not handled here: the message is delivered again (stop requested, partition lost, wiring bug).
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message ?? String(err) });
      throw err;
    } finally {
      span.end();
    }
  }

  private async deliver(m: OriginalMessage, control: DeliveryControl): Promise<DeliveryReport> {
    const route = this.opts.routes.get(m.topic);
    // The group subscribes to its routes' topics only; anything else is a wiring bug, not a message.
    if (!route) throw new Error(`group ${this.opts.group} has no handler for topic ${m.topic}`);
    let decoded: Decoded;
    try {
      decoded = this.decode(m, route.contract);
    } catch (err) {
      if (!(err instanceof PoisonMessage)) throw err;
      this.opts.metrics.increment(this.opts.group, m.topic, 'invalid');
      const eventId = decodeHeaders(m.headers)[EventHeader.EventId] ?? null;
      return this.deadLetter(m, route, eventId, err.message, 0, control);
    }
    return this.handle(m, route, decoded, control);
  }

  private decode(m: OriginalMessage, contract: TopicContract<unknown>): Decoded {
    const headers = decodeHeaders(m.headers);
    const eventId = headers[EventHeader.EventId];
    if (!eventId || !UUID.test(eventId))
      throw new PoisonMessage(`missing or malformed ${EventHeader.EventId} header`);
    const version = headers[EventHeader.SchemaVersion];
    if (version !== undefined && version !== String(contract.schemaVersion))
      throw new PoisonMessage(`schema version ${version} does not match ${contract.topic}`);
    if (m.value === null) throw new PoisonMessage('empty payload');
    let event: unknown;
    try {
      event = JSON.parse(m.value.toString('utf8'));
    } catch (err) {
      throw new PoisonMessage(`payload is not JSON: ${(err as Error).message}`);
    }
    const problems = violations(contract, event);
    if (problems.length) throw new PoisonMessage(`contract violation: ${problems.join('; ')}`);
    return { event, eventId, headers };
  }

  private async handle(
    m: OriginalMessage,
    route: Route,
    d: Decoded,
    control: DeliveryControl,
  ): Promise<DeliveryReport> {
    const { group, metrics } = this.opts;
    let messageFailures = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        const outcome = await this.opts.inbox.handleOnce(d.eventId, m.topic, async (tx) => {
          try {
            // The runner hands out the app's own transaction type; the inbox only sees it as Queryable.
            return await route.handler.handle(d.event, this.context(m, d, tx as never, attempt));
          } catch (err) {
            throw new HandlerFailure(err);
          }
        });
        if (outcome.duplicate) metrics.increment(group, m.topic, 'duplicates');
        else metrics.markHandled(group, m.topic);
        return this.report({
          ...this.where(m),
          eventId: d.eventId,
          outcome: outcome.duplicate ? 'duplicate' : 'handled',
          attempts: attempt,
        });
      } catch (err) {
        metrics.increment(group, m.topic, 'failures');
        const message = (err as Error)?.message ?? String(err);
        // A database outage is not the message's fault: wait it out without spending attempts.
        const outage = isConnectionFailure(err);
        if (!outage) messageFailures++;
        if (messageFailures >= route.retry.attempts) {
          return this.deadLetter(
            m,
            route,
            d.eventId,
            `handler failed ${attempt} time(s): ${message}`,
            attempt,
            control,
          );
        }
        metrics.increment(group, m.topic, 'retries');
        const delay = backoffDelay(outage ? attempt : messageFailures, route.retry);
        this.opts.log?.(
          'warn',
          `${group}: event ${d.eventId} on ${m.topic} failed (attempt ${attempt}${outage ? ', database unavailable' : ''}), retrying in ${delay} ms: ${message}`,
        );
        await this.pause(delay, control);
      }
    }
  }

  private context(m: OriginalMessage, d: Decoded, tx: never, attempt: number): ConsumerContext<never> {
    return {
      tx,
      eventId: d.eventId,
      tenantId: d.headers[EventHeader.TenantId] ?? null,
      requestId: d.headers[EventHeader.RequestId] ?? null,
      occurredAt: d.headers[EventHeader.OccurredAt] ?? null,
      topic: m.topic,
      partition: m.partition,
      offset: m.offset,
      key: m.key?.toString('utf8') ?? null,
      headers: d.headers,
      attempt,
    };
  }

  /**
   * Never loses a message: until the dead-letter topic has it, the delivery does not return, so its
   * offset is not committed and the partition waits. A stop or a rebalance ends the wait by throwing,
   * and the message comes back to whoever owns the partition next.
   */
  private async deadLetter(
    m: OriginalMessage,
    route: Route,
    eventId: string | null,
    reason: string,
    attempts: number,
    control: DeliveryControl,
  ): Promise<DeliveryReport> {
    const { group, metrics } = this.opts;
    const message = deadLetterMessage(m, { consumer: group, reason, attempts });
    for (let n = 1; ; n++) {
      try {
        await this.opts.deadLetter(message);
        break;
      } catch (err) {
        metrics.increment(group, m.topic, 'deadLetterErrors');
        const delay = backoffDelay(n, route.retry);
        this.opts.log?.(
          'error',
          `${group}: dead-letter publish of ${m.topic}/${m.partition}@${m.offset} failed, offset kept, retrying in ${delay} ms: ${(err as Error).message}`,
        );
        await this.pause(delay, control);
      }
    }
    metrics.increment(group, m.topic, 'deadLettered');
    this.opts.log?.('error', `${group}: ${m.topic}/${m.partition}@${m.offset} dead-lettered: ${reason}`);
    return this.report({ ...this.where(m), eventId, outcome: 'dead-lettered', attempts, reason });
  }

  private where(m: OriginalMessage): Pick<DeliveryReport, 'group' | 'topic' | 'partition' | 'offset'> {
    return { group: this.opts.group, topic: m.topic, partition: m.partition, offset: m.offset };
  }

  private report(r: DeliveryReport): DeliveryReport {
    try {
      this.opts.onOutcome?.(r);
    } catch (err) {
      // An observer must not turn a handled message into a redelivery.
      this.opts.log?.('warn', `${this.opts.group}: outcome observer failed: ${(err as Error).message}`);
    }
    return r;
  }

  private async pause(ms: number, control: DeliveryControl): Promise<void> {
    let left = ms;
    do {
      if (control.signal.aborted) throw new DeliveryAbandoned('consumer stopping');
      const slice = Math.min(left, HEARTBEAT_SLICE_MS);
      try {
        await sleep(slice, undefined, { signal: control.signal });
      } catch {
        throw new DeliveryAbandoned('consumer stopping');
      }
      left -= slice;
      await control.heartbeat();
    } while (left > 0);
  }
}
