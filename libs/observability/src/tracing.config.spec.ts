import { ConfigError, loadConfig } from '@platform/config';
import {
  TracingConfig,
  otlpTracesUrl,
  resourceAttributes,
  samplerRatio,
  tracesExporters,
} from './tracing.config';

const cfg = (env: Record<string, string>) => loadConfig(TracingConfig, env);

describe('TracingConfig', () => {
  it('is off by default, and on when an exporter or an OTLP endpoint is set', () => {
    expect(tracesExporters(cfg({}))).toEqual([]);
    expect(tracesExporters(cfg({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }))).toEqual(['otlp']);
    expect(tracesExporters(cfg({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }))).toEqual([
      'otlp',
    ]);
    expect(tracesExporters(cfg({ OTEL_TRACES_EXPORTER: 'otlp,console' }))).toEqual(['otlp', 'console']);
  });

  it('stays off when told so, whatever else is set', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(tracesExporters(cfg({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }))).toEqual([]);
    expect(tracesExporters(cfg({ ...endpoint, OTEL_SDK_DISABLED: 'true' }))).toEqual([]);
  });

  it('sends to the traces endpoint as is, else to the base endpoint + /v1/traces', () => {
    expect(otlpTracesUrl(cfg({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }))).toBe(
      'http://collector:4318/v1/traces',
    );
    expect(
      otlpTracesUrl(
        cfg({
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example.com/otlp',
        }),
      ),
    ).toBe('https://traces.example.com/otlp');
    expect(otlpTracesUrl(cfg({ OTEL_TRACES_EXPORTER: 'otlp' }))).toBe('http://localhost:4318/v1/traces');
  });

  it('fails at boot on a value it cannot honour', () => {
    const invalid: Record<string, string>[] = [
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' },
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
      { OTEL_TRACES_EXPORTER: 'jaeger' },
      { OTEL_TRACES_SAMPLER: 'sometimes' },
      { OTEL_TRACES_SAMPLER_ARG: '1.5' },
      { OTEL_SDK_DISABLED: 'yes' },
      { OTEL_BSP_SCHEDULE_DELAY: 'soon' },
      { OTEL_RESOURCE_ATTRIBUTES: 'no-equals-sign' },
    ];
    for (const env of invalid) {
      expect(() => cfg(env)).toThrow(ConfigError);
    }
  });

  it('reads the sampler ratio and the resource attributes', () => {
    expect(samplerRatio(cfg({}))).toBe(1);
    expect(
      samplerRatio(cfg({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' })),
    ).toBe(0.25);
    expect(resourceAttributes(cfg({}), 'calendar')).toEqual({ 'service.name': 'calendar' });
    expect(
      resourceAttributes(
        cfg({ OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod%2Ceu,service.name=x' }),
        'calendar',
      ),
    ).toEqual({ 'deployment.environment.name': 'prod,eu', 'service.name': 'x' });
    expect(resourceAttributes(cfg({ OTEL_SERVICE_NAME: 'cal-eu' }), 'calendar')['service.name']).toBe(
      'cal-eu',
    );
  });
});
