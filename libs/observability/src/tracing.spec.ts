import { propagation, context, trace } from '@opentelemetry/api';

type TracingModule = typeof import('./tracing');
type PassThroughModule = typeof import('./trace-pass-through');
let passThrough: PassThroughModule | undefined;

/** A fresh copy of ./tracing with the SDK module replaced, so a test sees whether it is loaded at all. */
function load(startSdk: jest.Mock): TracingModule {
  let mod: TracingModule | undefined;
  jest.isolateModules(() => {
    jest.doMock('./tracing.sdk', () => {
      loaded.push('tracing.sdk');
      return { startSdk, startInMemorySdk: jest.fn() };
    });
    mod = jest.requireActual<TracingModule>('./tracing');
    passThrough = jest.requireActual<PassThroughModule>('./trace-pass-through');
  });
  return mod as TracingModule;
}
const loaded: string[] = [];

describe('startTracing', () => {
  beforeEach(() => {
    loaded.length = 0;
  });

  it("loads no SDK without OTEL_* settings, and still carries a caller's W3C context as it came", async () => {
    const startSdk = jest.fn();
    const tracing = load(startSdk);
    expect(tracing.startTracing('calendar', {})).toBe(false);
    expect(loaded).toEqual([]);
    expect(startSdk).not.toHaveBeenCalled();
    try {
      const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      const carried = passThrough?.withCallerTraceContext({ traceparent }, async () => {
        await Promise.resolve();
        const out: Record<string, string> = {};
        propagation.inject(context.active(), out);
        return out;
      });
      // What the outbox row stores and the Kafka message carries: the caller's context, unchanged.
      expect(await carried).toEqual({ traceparent });
      // Nothing to continue without one.
      expect(
        passThrough?.withCallerTraceContext({}, () => trace.getSpanContext(context.active())),
      ).toBeUndefined();
    } finally {
      await tracing.stopTracing();
    }
    expect(passThrough?.withCallerTraceContext({ traceparent: 'x' }, () => 'ran')).toBe('ran');
  });

  it('carries nothing either with OTEL_SDK_DISABLED=true or OTEL_PROPAGATORS=none', async () => {
    for (const env of [{ OTEL_SDK_DISABLED: 'true' }, { OTEL_PROPAGATORS: 'none' }]) {
      const tracing = load(jest.fn());
      expect(tracing.startTracing('calendar', env)).toBe(false);
      const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      const out: Record<string, string> = {};
      passThrough?.withCallerTraceContext({ traceparent }, () => propagation.inject(context.active(), out));
      expect(out).toEqual({});
      await tracing.stopTracing();
    }
  });

  it('starts the SDK once, with the app name as the default service name, when an endpoint is set', () => {
    const startSdk = jest.fn(() => ({ flush: jest.fn(async () => undefined), shutdown: jest.fn() }));
    const tracing = load(startSdk);
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(tracing.startTracing('calendar', env)).toBe(true);
    expect(tracing.startTracing('calendar', env)).toBe(true);
    expect(startSdk).toHaveBeenCalledTimes(1);
    expect(startSdk).toHaveBeenCalledWith(
      expect.objectContaining({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }),
      'calendar',
    );
  });

  it('refuses an invalid setting at boot', () => {
    const tracing = load(jest.fn());
    expect(() => tracing.startTracing('calendar', { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      'only http/json is supported',
    );
  });
});

describe('startInMemoryTracing', () => {
  it('takes over from the carrying of the context a process started with tracing off', async () => {
    let tracing = undefined as unknown as TracingModule;
    jest.isolateModules(() => {
      // The real SDK, not the stand-in the tests above registered.
      jest.dontMock('./tracing.sdk');
      tracing = jest.requireActual<TracingModule>('./tracing');
    });
    expect(tracing.startTracing('calendar', {})).toBe(false);
    const memory = tracing.startInMemoryTracing();
    try {
      const span = trace.getTracer('test').startSpan('work');
      // The SDK's context manager is the one in place: the span is active inside `with`.
      expect(context.with(trace.setSpan(context.active(), span), () => trace.getActiveSpan())).toBe(span);
      span.end();
      expect(memory.spans()).toHaveLength(1);
    } finally {
      await memory.shutdown();
    }
  });

  it('backs the API with a provider and the W3C propagator until it is shut down', async () => {
    jest.dontMock('./tracing.sdk');
    let tracingModule: TracingModule | undefined;
    jest.isolateModules(() => (tracingModule = jest.requireActual<TracingModule>('./tracing')));
    const { startInMemoryTracing } = tracingModule as TracingModule;
    const tracing = startInMemoryTracing();
    const span = trace.getTracer('test').startSpan('work');
    const carrier: Record<string, string> = {};
    propagation.inject(trace.setSpan(context.active(), span), carrier);
    span.end();
    expect(carrier.traceparent).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
    expect(tracing.spans().map((s) => s.name)).toEqual(['work']);
    await tracing.shutdown();

    const after: Record<string, string> = {};
    propagation.inject(context.active(), after);
    expect(after).toEqual({});
  });
});
