import { webhookApiErrors } from '@platform/webhooks';

/**
 * The webhooks area's error reasons (docs/lending/webhooks.md, "Errors"): libs/webhooks' table, the
 * same as verification's but for its word: a subscription (`WEBHOOK_SUBSCRIPTION_NOT_FOUND`, message
 * argument `{subscriptionId}`; `WEBHOOK_SUBSCRIPTION_LIMIT_REACHED` past
 * WEBHOOK_SUBSCRIPTIONS_MAX_PER_ORGANIZATION). Texts: apps/lending/src/i18n/<lang>/webhooks.json, key
 * `webhooks.errors.<reason>`.
 */
export const webhookErrors = webhookApiErrors('SUBSCRIPTION', 'subscriptionId');
export const WebhooksError = webhookErrors.reasons;
export type WebhooksError = (typeof WebhooksError)[keyof typeof WebhooksError];
export const webhooksError = webhookErrors.error;

/** The reasons a route taking a URL can answer, for `@ApiReasons`. */
export { WEBHOOK_URL_REFUSALS as URL_REFUSALS } from '@platform/webhooks';
