import type { IncomingMessage } from 'node:http';
import { clientAddress } from '../proxy/forwarded-headers';
import type { RouteRule } from '../proxy/route-table';
import type { TrustedProxies } from '../proxy/trusted-proxies';
import { clientKey } from './client-key';
import type { LeaseLimiter, LimitDecision } from './lease-limiter';

export interface AnonymousRateLimitOptions {
  /** Scales every registry budget (GATEWAY_RATE_LIMIT_MULTIPLIER). */
  multiplier: number;
  ipv6Prefix: number;
}

const KEYS_MAX = 10_000;
/** Longer chains (a client padding X-Forwarded-For) are parsed every time: memory stays ~3 MB at most. */
const KEY_TEXT_MAX = 256;

/**
 * The per-IP budgets of the routes the registry marks (decision 0022), keyed by the client address
 * the trusted-proxy rules determine: a peer outside GATEWAY_TRUSTED_PROXIES is counted under its own
 * address whatever X-Forwarded-For it sends.
 */
export class AnonymousRateLimit {
  /**
   * Peer address + X-Forwarded-For -> the key counted under: a pure function of them and the
   * configuration, parsed once per distinct pair instead of per request (address parsing was ~5% of a
   * cached GET's CPU). Cleared when full, so churn costs bounded memory and no correctness.
   * Keys of at most KEY_TEXT_MAX characters only.
   */
  private readonly keys = new Map<string, string>();

  constructor(
    private readonly limiter: LeaseLimiter,
    private readonly trusted: TrustedProxies,
    private readonly opts: AnonymousRateLimitOptions,
  ) {}

  /** Undefined when the route has no budget. */
  take(req: IncomingMessage, rule: RouteRule): LimitDecision | Promise<LimitDecision> | undefined {
    const budget = rule.rateLimit;
    if (!budget) return undefined;
    const xff = req.headers['x-forwarded-for'];
    const memo = `${req.socket.remoteAddress ?? ''}\n${Array.isArray(xff) ? xff.join(',') : (xff ?? '')}`;
    let client = this.keys.get(memo);
    if (client === undefined) {
      client = clientKey(
        clientAddress(req.headers, req.socket.remoteAddress, this.trusted),
        this.opts.ipv6Prefix,
      );
      if (memo.length <= KEY_TEXT_MAX) {
        if (this.keys.size >= KEYS_MAX) this.keys.clear();
        this.keys.set(memo, client);
      }
    }
    return this.limiter.take({
      bucket: `${budget.id}|${budget.windowSec}|${client}`,
      limit: Math.max(1, Math.round(budget.requests * this.opts.multiplier)),
      windowSec: budget.windowSec,
    });
  }
}

/** The draft RateLimit header fields (as the calendar's write limit sends them), plus Retry-After on a 429. */
export function rateLimitHeaders(d: LimitDecision): Record<string, string> {
  return {
    'RateLimit-Policy': `${d.limit};w=${d.windowSec}`,
    'RateLimit-Limit': String(d.limit),
    'RateLimit-Remaining': String(d.remaining),
    'RateLimit-Reset': String(d.resetSec),
    ...(d.allowed ? {} : { 'Retry-After': String(d.retryAfterSec) }),
  };
}
