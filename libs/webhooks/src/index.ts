/**
 * Signed outgoing webhooks (verification's `X-Service-*` deliveries, lending's subscriptions) will live
 * here. Intentionally empty in the foundation: no service sends webhooks yet.
 */
export const WEBHOOKS_LIB = 'webhooks';
