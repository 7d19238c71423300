import { counter, gauge } from '@platform/observability';

export interface ConsumerCounters {
  /** Messages whose effect committed (first deliveries). */
  handled: number;
  /** Redeliveries found in the inbox: no second effect. */
  duplicates: number;
  /** Handler runs that threw (each attempt counts). */
  failures: number;
  /** Handler runs scheduled again after a failure. */
  retries: number;
  /** Messages refused before the handler ran: not JSON, no event id, contract violation. */
  invalid: number;
  /** Messages published to the dead-letter topic (invalid ones and those out of attempts). */
  deadLettered: number;
  /** Dead-letter publishes that failed; the message is kept and its offset not committed. */
  deadLetterErrors: number;
  /** When the last message was handled (ISO 8601); null before the first. */
  lastHandledAt: string | null;
}

export type ConsumerCounter = Exclude<keyof ConsumerCounters, 'lastHandledAt'>;

export interface ConsumerSeries extends ConsumerCounters {
  group: string;
  topic: string;
}

const PROMETHEUS: readonly { counter: ConsumerCounter; name: string; help: string }[] = [
  {
    counter: 'handled',
    name: 'consumer_messages_handled_total',
    help: 'Messages handled (effect committed).',
  },
  {
    counter: 'duplicates',
    name: 'consumer_messages_duplicate_total',
    help: 'Redeliveries absorbed by the inbox.',
  },
  { counter: 'failures', name: 'consumer_handler_failures_total', help: 'Handler runs that threw.' },
  {
    counter: 'retries',
    name: 'consumer_handler_retries_total',
    help: 'Handler runs retried after a failure.',
  },
  { counter: 'invalid', name: 'consumer_messages_invalid_total', help: 'Messages refused by the contract.' },
  {
    counter: 'deadLettered',
    name: 'consumer_messages_dead_lettered_total',
    help: 'Messages moved to the dead-letter topic.',
  },
  {
    counter: 'deadLetterErrors',
    name: 'consumer_dead_letter_errors_total',
    help: 'Dead-letter publishes that failed (message kept, offset not committed).',
  },
];

/** The same counters in the process's registry (libs/observability), served on every app's /metrics. */
const REGISTERED = Object.fromEntries(
  PROMETHEUS.map((m) => [m.counter, counter({ name: m.name, help: m.help, labelNames: ['group', 'topic'] })]),
) as Record<ConsumerCounter, ReturnType<typeof counter<'group' | 'topic'>>>;
const lastHandled = gauge({
  name: 'consumer_last_handled_timestamp_seconds',
  help: 'When the last message was handled (Unix time).',
  labelNames: ['group', 'topic'],
});

/** Prometheus label values: backslash, double quote and newline must be escaped. */
function label(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/**
 * Counters per consumer group and topic, for this replica. Read them as objects (`snapshot`) or as
 * Prometheus text of this instance alone (`prometheus`); the process's registry (libs/observability)
 * gets every increment too, and that is what `/metrics` serves.
 */
export class ConsumerMetrics {
  private readonly series = new Map<string, ConsumerSeries>();

  /** Makes a series visible at zero before its first message, so dashboards see the consumer. */
  track(group: string, topic: string): ConsumerSeries {
    const key = `${group}\u0000${topic}`;
    let s = this.series.get(key);
    if (!s) {
      s = {
        group,
        topic,
        handled: 0,
        duplicates: 0,
        failures: 0,
        retries: 0,
        invalid: 0,
        deadLettered: 0,
        deadLetterErrors: 0,
        lastHandledAt: null,
      };
      this.series.set(key, s);
      for (const c of Object.values(REGISTERED)) c.inc({ group, topic }, 0);
    }
    return s;
  }

  increment(group: string, topic: string, counter: ConsumerCounter, by = 1): void {
    this.track(group, topic)[counter] += by;
    REGISTERED[counter].inc({ group, topic }, by);
  }

  markHandled(group: string, topic: string, at = new Date()): void {
    const s = this.track(group, topic);
    s.handled += 1;
    s.lastHandledAt = at.toISOString();
    REGISTERED.handled.inc({ group, topic });
    lastHandled.set({ group, topic }, at.getTime() / 1000);
  }

  /** A copy: callers cannot change the live counters. */
  get(group: string, topic: string): ConsumerSeries | undefined {
    const s = this.series.get(`${group}\u0000${topic}`);
    return s && { ...s };
  }

  snapshot(): ConsumerSeries[] {
    return [...this.series.values()]
      .map((s) => ({ ...s }))
      .sort((a, b) => a.group.localeCompare(b.group) || a.topic.localeCompare(b.topic));
  }

  /** Text exposition format 0.0.4, as `GET /metrics` of the relay answers. */
  prometheus(): string {
    const all = this.snapshot();
    const labels = (s: ConsumerSeries) => `{group="${label(s.group)}",topic="${label(s.topic)}"}`;
    const lines: string[] = [];
    for (const m of PROMETHEUS) {
      lines.push(`# HELP ${m.name} ${m.help}`, `# TYPE ${m.name} counter`);
      for (const s of all) lines.push(`${m.name}${labels(s)} ${s[m.counter]}`);
    }
    lines.push(
      '# HELP consumer_last_handled_timestamp_seconds When the last message was handled (Unix time).',
      '# TYPE consumer_last_handled_timestamp_seconds gauge',
    );
    for (const s of all) {
      if (s.lastHandledAt === null) continue;
      const seconds = (Date.parse(s.lastHandledAt) / 1000).toFixed(3);
      lines.push(`consumer_last_handled_timestamp_seconds${labels(s)} ${seconds}`);
    }
    return `${lines.join('\n')}\n`;
  }
}
