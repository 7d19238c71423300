import { counter } from './metrics';

/**
 * Requests refused by a rate limit, wherever it is decided: the gateway's per-IP budgets
 * (`limiter="gateway"`, `budget` the registry's budget id, e.g. `verification:/portal/v1`) and the
 * services' own (`limiter` the service, e.g. calendar's per-product write budget).
 */
export const rateLimitRejections = counter({
  name: 'rate_limit_rejections_total',
  help: 'Requests refused with 429 by a rate limit, by limiter and budget.',
  labelNames: ['limiter', 'budget'] as const,
});
