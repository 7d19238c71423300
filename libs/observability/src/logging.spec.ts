import { Logger } from '@nestjs/common';
import { context, trace } from '@opentelemetry/api';
import { LogRecord, PlatformLogger, logFormat } from './logging';
import { runWithRequestId } from './request-context';
import { startInMemoryTracing } from './tracing';

/** What the logger writes to stdout and stderr while `run` runs. */
function capture(run: () => void): { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const o = jest.spyOn(process.stdout, 'write').mockImplementation((c) => (out.push(String(c)), true));
  const e = jest.spyOn(process.stderr, 'write').mockImplementation((c) => (err.push(String(c)), true));
  try {
    run();
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
  return { out, err };
}

describe('logFormat', () => {
  it('is JSON in production and text elsewhere, unless LOG_FORMAT says', () => {
    expect(logFormat({ NODE_ENV: 'production', LOG_FORMAT: '' })).toBe('json');
    expect(logFormat({ NODE_ENV: 'development', LOG_FORMAT: '' })).toBe('text');
    expect(logFormat({ NODE_ENV: 'test' })).toBe('text');
    expect(logFormat({ NODE_ENV: 'production', LOG_FORMAT: 'text' })).toBe('text');
    expect(logFormat({ NODE_ENV: 'development', LOG_FORMAT: 'json' })).toBe('json');
  });
});

describe('PlatformLogger', () => {
  const json = () =>
    new PlatformLogger({ format: 'json', service: 'calendar', instance: 'calendar-7d9f-x2' });

  it('writes one JSON object per line with the app, the replica and the record fields at the top', () => {
    const logger = json();
    const { out } = capture(() =>
      logger.log(
        new LogRecord('GET /Calendar/GetEvents 200 3.2ms', {
          requestId: 'r-1',
          status: 200,
          tenant: undefined,
        }),
        'HTTP',
      ),
    );
    expect(out).toHaveLength(1);
    expect(out[0].endsWith('\n')).toBe(true);
    const line = JSON.parse(out[0]) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 'log',
      service: 'calendar',
      instance: 'calendar-7d9f-x2',
      context: 'HTTP',
      message: 'GET /Calendar/GetEvents 200 3.2ms',
      requestId: 'r-1',
      status: 200,
    });
    expect(line).not.toHaveProperty('tenant');
    expect(Date.parse(String(line.time))).toBeGreaterThan(0);
  });

  it('redacts secrets from messages, record fields and stacks', () => {
    const logger = json();
    const { out, err } = capture(() => {
      logger.warn('cannot reach postgres://relay:hunter2@db:5432/platform', 'Relay');
      logger.log(new LogRecord('upload', { url: '/portal/v1/upload/tok3n-value/documents' }));
      logger.error('failed', 'Error: Bearer abc.def\n    at x (y.ts:1:1)', 'Boot');
    });
    const text = [...out, ...err].join('');
    expect(text).not.toMatch(/hunter2|tok3n-value|abc\.def/);
    expect(JSON.parse(out[0]).message).toBe('cannot reach postgres://relay:***@db:5432/platform');
    expect(JSON.parse(out[1]).url).toBe('/portal/v1/upload/***/documents');
    expect(JSON.parse(err[0])).toMatchObject({ level: 'error', context: 'Boot', message: 'failed' });
    expect(JSON.parse(err[0]).stack).toContain('Bearer ***');
  });

  // Nest 12's ConsoleLogger passes plain objects after the message as `params` and an Error as `error`
  // to getJsonLogObject: they keep their place on the line and go through the same redaction.
  it('puts plain-object arguments at the top and an Error under `error`, both redacted', () => {
    const logger = json();
    const { out, err } = capture(() => {
      logger.warn('retrying', { attempt: 2, url: 'postgres://relay:hunter2@db/platform', level: 'x' });
      logger.error(new Error('cannot reach postgres://relay:hunter2@db/platform'));
    });
    expect(JSON.parse(out[0])).toMatchObject({
      level: 'warn',
      message: 'retrying',
      attempt: 2,
      url: 'postgres://relay:***@db/platform',
    });
    const line = JSON.parse(err[0]) as { message: string; error: { name: string; stack: string } };
    expect(line.message).toBe('cannot reach postgres://relay:***@db/platform');
    expect(line.error.name).toBe('Error');
    expect(line.error.stack).toContain('postgres://relay:***@db');
    expect([...out, ...err].join('')).not.toContain('hunter2');
  });
  it('in text, prints the message and only the fields the record names', () => {
    const logger = new PlatformLogger({ format: 'text', service: 'calendar', instance: '1' });
    const { out } = capture(() =>
      logger.log(
        new LogRecord('GET /x 200 1ms', { requestId: 'r-2', tenant: 'acc-1', status: 200 }, [
          'requestId',
          'tenant',
        ]),
        'HTTP',
      ),
    );
    expect(out.join('')).toContain('GET /x 200 1ms requestId=r-2 tenant=acc-1');
    expect(out.join('')).not.toContain('status=');
    expect(() => JSON.parse(out[0])).toThrow();
  });

  it("takes Nest's log levels: a debug line is dropped at the default levels", () => {
    const logger = json();
    expect(capture(() => logger.debug('noise')).out).toEqual([]);
    logger.setLogLevels(['log', 'debug']);
    expect(capture(() => logger.debug('noise')).out).toHaveLength(1);
  });

  it("is what Nest's static Logger writes through once installed", () => {
    Logger.overrideLogger(json());
    try {
      const { out } = capture(() => new Logger('Bootstrap').log('listening'));
      expect(JSON.parse(out[0])).toMatchObject({
        context: 'Bootstrap',
        message: 'listening',
        service: 'calendar',
      });
    } finally {
      Logger.overrideLogger(new PlatformLogger({ format: 'text', service: 't', instance: '0' }));
    }
  });
});

describe('PlatformLogger: the request and the trace on every line', () => {
  const json = () => new PlatformLogger({ format: 'json', service: 'verification', instance: 'v-1' });

  it('adds the running request id (and no trace ids while tracing is off)', () => {
    const { out } = capture(() => runWithRequestId('r-7', () => json().warn('disk slow', 'Uploads')));
    const line = JSON.parse(out[0]) as Record<string, unknown>;
    expect(line).toMatchObject({ message: 'disk slow', requestId: 'r-7' });
    expect(line).not.toHaveProperty('traceId');
    // Outside a request nothing is added; a record's own request id wins over the running one.
    const outside = JSON.parse(capture(() => json().log('idle')).out[0]) as Record<string, unknown>;
    expect(outside).not.toHaveProperty('requestId');
    const own = capture(() =>
      runWithRequestId('r-7', () => json().log(new LogRecord('x', { requestId: 'r-8' }))),
    );
    expect(JSON.parse(own.out[0])).toMatchObject({ requestId: 'r-8' });
  });

  it('adds the active span, in JSON and in text', async () => {
    const tracing = startInMemoryTracing();
    try {
      const span = trace.getTracer('test').startSpan('request');
      const { traceId, spanId } = span.spanContext();
      const inSpan = (write: () => void) => context.with(trace.setSpan(context.active(), span), write);
      const { out } = capture(() => inSpan(() => json().log(new LogRecord('GET /x 200', { status: 200 }))));
      expect(JSON.parse(out[0])).toMatchObject({ message: 'GET /x 200', traceId, spanId });
      const text = new PlatformLogger({ format: 'text', service: 'verification', instance: 'v-1' });
      const lines = capture(() => inSpan(() => text.log('handled', 'Consumer'))).out;
      expect(lines[0]).toContain(`handled traceId=${traceId} spanId=${spanId}`);
      span.end();
    } finally {
      await tracing.shutdown();
    }
  });
});
