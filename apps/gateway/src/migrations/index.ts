import { RateLimitLeases1763900000000 } from './1763900000000-rate-limit-leases';

export const GATEWAY_MIGRATIONS = [RateLimitLeases1763900000000];
