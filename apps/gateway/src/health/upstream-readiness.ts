import type { HealthCheck, HealthCheckDefinition } from '@platform/health';
import { ROUTED_SERVICES, type RoutedService } from '@platform/registry';
import { GatewayConfig } from '../config/gateway.config';

/** Names of the checks a service's own readiness report lists as down (`value.checks`), if it says. */
function downChecks(body: unknown): string[] {
  const checks = (body as { value?: { checks?: Record<string, { status?: string }> } })?.value?.checks;
  if (!checks || typeof checks !== 'object') return [];
  return Object.entries(checks)
    .filter(([, c]) => c?.status !== 'up')
    .map(([name]) => name);
}

/**
 * One service's readiness as the gateway sees it: its own /health/ready through the service's upstream
 * URL, with a short timeout. Concurrent probes of one replica share the call in flight, so a burst of
 * /health/ready requests costs each service one request, not one each; nothing is remembered after.
 * The error says what failed without the internal address.
 */
export function upstreamReadiness(s: RoutedService, baseUrl: string, timeoutMs: number): HealthCheck {
  const url = `${baseUrl.replace(/\/$/, '')}${s.health}/ready`;
  let inflight: Promise<void> | undefined;
  const probe = async (): Promise<void> => {
    let res: Response;
    try {
      res = await fetch(url, {
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: 'application/json' },
      });
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError';
      throw new Error(timedOut ? `no answer in ${timeoutMs} ms` : 'unreachable', { cause: err });
    }
    if (res.status === 200) {
      await res.body?.cancel();
      return;
    }
    const down = downChecks(await res.json().catch(() => undefined));
    throw new Error(`answered ${res.status}${down.length ? ` (${down.join(', ')} down)` : ''}`);
  };
  return () => {
    inflight ??= probe().finally(() => {
      inflight = undefined;
    });
    return inflight;
  };
}

/**
 * The gateway's readiness (GET /health/ready): one check per service behind it, named after the
 * service, all asked at once by libs/health; 200 only when every one is ready, otherwise 503 naming
 * the ones that are not, with each service's status, latency and error in the envelope.
 */
export const upstreamReadinessChecks: HealthCheckDefinition[] = ROUTED_SERVICES.map((s) => ({
  name: s.name,
  inject: [GatewayConfig],
  useFactory: (cfg: GatewayConfig) =>
    upstreamReadiness(s, cfg[s.gateway.upstreamEnv], cfg.GATEWAY_READY_TIMEOUT_MS),
}));
