import { webhookApiErrors } from '@platform/webhooks';

/**
 * The webhooks area's error reasons (docs/verification/webhooks.md, "Errors"): libs/webhooks' table,
 * where a subscription is an endpoint (`WEBHOOK_ENDPOINT_NOT_FOUND`, message argument `{id}`). Texts:
 * apps/verification/src/i18n/<lang>/webhooks.json, key `webhooks.errors.<reason>`.
 */
export const webhookErrors = webhookApiErrors('ENDPOINT', 'id');
export const WebhooksError = webhookErrors.reasons;
export type WebhooksError = (typeof WebhooksError)[keyof typeof WebhooksError];
export const webhooksError = webhookErrors.error;

/** The reasons a route taking a URL can answer, for `@ApiReasons`. */
export { WEBHOOK_URL_REFUSALS as URL_REFUSALS } from '@platform/webhooks';
