import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import { redactSecrets } from './redact';
import { currentRequestId } from './request-context';

/**
 * A log line with structured fields (the request log): in JSON the fields sit at the top level next
 * to `message`, in text they follow it as `key=value`.
 */
export class LogRecord {
  /**
   * @param textFields the fields a text line shows after the message (default: all); the others
   *   repeat what the message already says.
   */
  constructor(
    readonly message: string,
    readonly fields: Readonly<Record<string, string | number | boolean | null | undefined>>,
    readonly textFields?: readonly string[],
  ) {}
}

export type LogFormat = 'json' | 'text';

/** `LOG_FORMAT` wins; unset, production logs JSON (for the cluster's collector) and the rest text. */
export function logFormat(settings: { NODE_ENV: string; LOG_FORMAT?: string }): LogFormat {
  if (settings.LOG_FORMAT === 'json' || settings.LOG_FORMAT === 'text') return settings.LOG_FORMAT;
  return settings.NODE_ENV === 'production' ? 'json' : 'text';
}

export interface PlatformLoggerOptions {
  format: LogFormat;
  /** The app's name (`service` of every JSON line). */
  service: string;
  /** The replica (the pod's name on Kubernetes). */
  instance: string;
  logLevels?: LogLevel[];
}

// Nest 12's ConsoleLogger hands a line's plain-object arguments (`params`) and its first Error (`error`)
// to getJsonLogObject separately from the message.
interface JsonLogOptions {
  context: string;
  logLevel: LogLevel;
  writeStreamType?: 'stdout' | 'stderr';
  errorStack?: unknown;
  params?: Record<string, unknown>;
  error?: Error;
}
interface JsonLogObject {
  [key: string]: unknown;
  level: LogLevel;
  pid: number;
  timestamp: number;
  message: unknown;
  context?: string;
  stack?: unknown;
}

const redactValue = (v: unknown): unknown => (typeof v === 'string' ? redactSecrets(v) : v);

/**
 * The work a line is written in: the request (libs/observability request-context) and, with tracing
 * on, the active span, so a line leads to its trace and a trace to its lines. With tracing off the
 * OpenTelemetry API has no context and only the request id is there.
 */
export function logCorrelation(): { requestId?: string; traceId?: string; spanId?: string } {
  const out: { requestId?: string; traceId?: string; spanId?: string } = {};
  const requestId = currentRequestId();
  if (requestId) out.requestId = requestId;
  const span = trace.getSpanContext(context.active());
  if (span && isSpanContextValid(span)) {
    out.traceId = span.traceId;
    out.spanId = span.spanId;
  }
  return out;
}

/**
 * Every app's logger: Nest's own ConsoleLogger (no new dependency; its `json` mode writes one JSON
 * object per line), with the app and replica on each JSON line, structured records flattened, the
 * request id and trace and span ids of the work being done (`logCorrelation`) on every line, and
 * secrets redacted from every message and stack (redact.ts) in both formats.
 */
export class PlatformLogger extends ConsoleLogger {
  private readonly service: string;
  private readonly instance: string;

  constructor(opts: PlatformLoggerOptions) {
    super({ json: opts.format === 'json', logLevels: opts.logLevels ?? ['fatal', 'error', 'warn', 'log'] });
    this.service = opts.service;
    this.instance = opts.instance;
  }

  protected override getJsonLogObject(message: unknown, options: JsonLogOptions): JsonLogObject {
    const fields = message instanceof LogRecord ? message.fields : {};
    const text = message instanceof LogRecord ? message.message : message;
    const line: Record<string, unknown> = {
      time: new Date().toISOString(),
      level: options.logLevel,
      service: this.service,
      instance: this.instance,
      pid: process.pid,
      timestamp: Date.now(),
      ...(options.context ? { context: options.context } : {}),
      message: redactValue(text),
    };
    // Plain objects passed after the message (Nest 12's structured params) sit at the top level like a
    // LogRecord's fields; the logger's own keys win.
    for (const [k, v] of Object.entries({ ...options.params, ...fields }))
      if (v !== undefined && !(k in line)) line[k] = redactValue(v);
    for (const [k, v] of Object.entries(logCorrelation())) if (!(k in line)) line[k] = v;
    if (options.errorStack) line.stack = redactValue(options.errorStack);
    if (options.error) {
      const error = this.serializeError(options.error);
      line.error = { ...error, message: redactValue(error.message), stack: redactValue(error.stack) };
    }
    return line as JsonLogObject;
  }

  protected override stringifyMessage(message: unknown, logLevel: LogLevel): string {
    // In text only the trace ids follow the message (the request id is the request line's own field).
    const { traceId, spanId } = logCorrelation();
    const ids = traceId ? [`traceId=${traceId}`, `spanId=${spanId}`] : [];
    if (message instanceof LogRecord) {
      const shown = message.textFields;
      const pairs = Object.entries(message.fields)
        .filter(([k, v]) => v !== undefined && v !== null && (!shown || shown.includes(k)))
        .map(([k, v]) => `${k}=${String(v)}`);
      return super.stringifyMessage(
        redactSecrets([message.message, ...pairs, ...ids].join(' ')),
        logLevel,
      ) as string;
    }
    if (ids.length && typeof message === 'string')
      return super.stringifyMessage(redactSecrets([message, ...ids].join(' ')), logLevel) as string;
    return super.stringifyMessage(redactValue(message), logLevel) as string;
  }

  /** Text lines show structured params after the message: redacted like the message. */
  protected override stringifyParams(params: Record<string, unknown>): string {
    return redactSecrets(super.stringifyParams(params));
  }

  protected override printStackTrace(stack: string): void {
    super.printStackTrace(typeof stack === 'string' ? redactSecrets(stack) : stack);
  }
}
