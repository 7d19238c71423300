import { propagation, context, trace } from '@opentelemetry/api';

type TracingModule = typeof import('./tracing');

/** A fresh copy of ./tracing with the SDK module replaced, so a test sees whether it is loaded at all. */
function load(startSdk: jest.Mock): TracingModule {
  let mod: TracingModule | undefined;
  jest.isolateModules(() => {
    jest.doMock('./tracing.sdk', () => {
      loaded.push('tracing.sdk');
      return { startSdk, startInMemorySdk: jest.fn() };
    });
    mod = jest.requireActual<TracingModule>('./tracing');
  });
  return mod as TracingModule;
}
const loaded: string[] = [];

describe('startTracing', () => {
  beforeEach(() => {
    loaded.length = 0;
  });

  it('starts nothing, and loads no SDK, without OTEL_* settings', () => {
    const startSdk = jest.fn();
    const tracing = load(startSdk);
    expect(tracing.startTracing('calendar', {})).toBe(false);
    expect(loaded).toEqual([]);
    expect(startSdk).not.toHaveBeenCalled();
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
