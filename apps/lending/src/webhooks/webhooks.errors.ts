import { defineErrors } from '@platform/envelope';
import { WebhookTargetRefusal } from '@platform/webhooks';

/**
 * The webhooks area's error reasons (docs/lending/webhooks.md, "Errors"). Texts:
 * apps/lending/src/i18n/<lang>/webhooks.json, key `webhooks.errors.<reason>`. The four URL refusals are
 * libs/webhooks' own codes (`WebhookTargetRefusal`, the same as verification answers).
 */
export enum WebhooksError {
  /** Unknown subscription id, or another organization's. */
  SUBSCRIPTION_NOT_FOUND = 'WEBHOOK_SUBSCRIPTION_NOT_FOUND',
  /** Unknown delivery id, or another organization's. */
  DELIVERY_NOT_FOUND = 'WEBHOOK_DELIVERY_NOT_FOUND',
  /** RedriveDelivery of a delivery that is not dead (still trying, or delivered). */
  DELIVERY_NOT_DEAD = 'WEBHOOK_DELIVERY_NOT_DEAD',
  /** The organization has WEBHOOK_SUBSCRIPTIONS_MAX_PER_ORGANIZATION subscriptions already. */
  SUBSCRIPTION_LIMIT_REACHED = 'WEBHOOK_SUBSCRIPTION_LIMIT_REACHED',
  URL_INVALID = 'WEBHOOK_URL_INVALID',
  URL_INSECURE_SCHEME = 'WEBHOOK_URL_INSECURE_SCHEME',
  URL_PRIVATE_ADDRESS = 'WEBHOOK_URL_PRIVATE_ADDRESS',
  URL_UNRESOLVABLE = 'WEBHOOK_URL_UNRESOLVABLE',
  /** Production without WEBHOOKS_SECRET_KEY: webhooks are off. */
  NOT_CONFIGURED = 'WEBHOOKS_NOT_CONFIGURED',
}

// The lib's refusal codes are ours: a new refusal in the lib fails this line until it has a reason here.
const REFUSALS: Record<WebhookTargetRefusal, WebhooksError> = {
  [WebhookTargetRefusal.INVALID_URL]: WebhooksError.URL_INVALID,
  [WebhookTargetRefusal.INSECURE_SCHEME]: WebhooksError.URL_INSECURE_SCHEME,
  [WebhookTargetRefusal.PRIVATE_ADDRESS]: WebhooksError.URL_PRIVATE_ADDRESS,
  [WebhookTargetRefusal.UNRESOLVABLE]: WebhooksError.URL_UNRESOLVABLE,
};

export function refusalReason(r: WebhookTargetRefusal): WebhooksError {
  return REFUSALS[r];
}

/** The reasons a route taking a URL can answer, for `@ApiReasons`. */
export const URL_REFUSALS = [
  WebhooksError.URL_INVALID,
  WebhooksError.URL_INSECURE_SCHEME,
  WebhooksError.URL_PRIVATE_ADDRESS,
  WebhooksError.URL_UNRESOLVABLE,
] as const;

const STATUS: Record<WebhooksError, number> = {
  [WebhooksError.SUBSCRIPTION_NOT_FOUND]: 404,
  [WebhooksError.DELIVERY_NOT_FOUND]: 404,
  [WebhooksError.DELIVERY_NOT_DEAD]: 409,
  [WebhooksError.SUBSCRIPTION_LIMIT_REACHED]: 409,
  [WebhooksError.URL_INVALID]: 422,
  [WebhooksError.URL_INSECURE_SCHEME]: 422,
  [WebhooksError.URL_PRIVATE_ADDRESS]: 422,
  [WebhooksError.URL_UNRESOLVABLE]: 422,
  [WebhooksError.NOT_CONFIGURED]: 503,
};

export const webhooksError = defineErrors<WebhooksError>(
  Object.fromEntries(
    Object.values(WebhooksError).map((c) => [c, { status: STATUS[c], messageKey: `webhooks.errors.${c}` }]),
  ) as Record<WebhooksError, { status: number; messageKey: string }>,
);
