/**
 * OpenTelemetry traces, off by default (docs/runbooks/dashboards.md, "Traces").
 * `@platform/observability/tracing` is an entry point of its own, apart from the lib's index, so that each app's `instrument.ts`, the first module its
 * main.ts loads, starts tracing before `http` and `pg` are loaded and nothing else of the lib comes
 * first. With tracing off nothing of the SDK is even loaded; code that creates spans uses
 * `@opentelemetry/api`, whose calls are no-ops then.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '@platform/config';
import { setTracePassThrough } from './trace-pass-through';
import { TracingConfig, tracesExporters } from './tracing.config';
import type { InMemoryTracing, TracingHandle } from './tracing.sdk';

export { TracingConfig, tracesExporters, otlpTracesUrl } from './tracing.config';
export { redactPath, redactQuery, redactTarget, REDACTED } from './tracing.redact';
export type { InMemoryTracing, TracingHandle } from './tracing.sdk';

let running: TracingHandle | undefined;
let passing: { shutdown(): void } | undefined;

function sdk(): typeof import('./tracing.sdk') {
  // Loaded only when tracing is on: an app without it pays nothing for the SDK.
  return require('./tracing.sdk') as typeof import('./tracing.sdk');
}

/**
 * Starts tracing for this process when the `OTEL_*` settings ask for it (an exporter or an OTLP
 * endpoint); throws on an invalid setting, like every app config. `serviceName` is the default
 * `service.name` (OTEL_SERVICE_NAME wins). Once per process; later calls return the first result.
 *
 * With tracing off the W3C context is still carried through (tracing.propagation.ts): a caller's
 * `traceparent` reaches the outbox rows, the Kafka headers and the consumers' own events unchanged,
 * unless `OTEL_SDK_DISABLED=true` or `OTEL_PROPAGATORS=none` turn that off too.
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (running) return true;
  const cfg = loadConfig(TracingConfig, env);
  if (tracesExporters(cfg).length === 0) {
    if (!passing && !cfg.OTEL_SDK_DISABLED && !cfg.OTEL_PROPAGATORS.split(',').includes('none')) {
      const lite = require('./tracing.propagation') as typeof import('./tracing.propagation');
      passing = lite.startPropagation(cfg);
      setTracePassThrough(true);
    }
    return false;
  }
  running = sdk().startSdk(cfg, serviceName);
  return true;
}

/** How long a shutdown waits for the last export: a collector that is away must not hold the pod. */
const FLUSH_WAIT_MS = 2000;

/** Exports the spans ended so far, within FLUSH_WAIT_MS; a no-op when tracing is off. Apps call it as they shut down. */
export async function flushTracing(): Promise<void> {
  if (!running) return;
  await Promise.race([
    running.flush().catch(() => undefined),
    sleep(FLUSH_WAIT_MS, undefined, { ref: false }),
  ]);
}

/** Stops tracing, or the carrying of the context (tests that start and stop it in one process). */
export async function stopTracing(): Promise<void> {
  const handle = running;
  running = undefined;
  passing?.shutdown();
  passing = undefined;
  setTracePassThrough(false);
  await handle?.shutdown();
}

/**
 * For tests: the API backed by a provider that keeps spans in memory (no exporter, no patching of
 * http or pg), with the W3C propagators. `stopTracing` or the handle's `shutdown` ends it.
 */
export function startInMemoryTracing(env: NodeJS.ProcessEnv = {}): InMemoryTracing {
  if (running) throw new Error('tracing is already running in this process');
  // The SDK registers the same globals as the carrying of the context: the second registration would fail.
  passing?.shutdown();
  passing = undefined;
  setTracePassThrough(false);
  const memory = sdk().startInMemorySdk(loadConfig(TracingConfig, env), 'test');
  running = memory;
  return {
    ...memory,
    shutdown: async () => {
      running = undefined;
      await memory.shutdown();
    },
  };
}
