import { defineErrors, type DomainError, type ErrorFactory } from '@platform/envelope';

/**
 * The reasons every service's webhook API answers alike, whatever it calls a subscription. The four URL
 * refusals are the SSRF guard's own codes (`PublicTargetRefusal`, mapped in WebhookSubscriptionsApi).
 */
export const WebhookApiReason = {
  DELIVERY_NOT_FOUND: 'WEBHOOK_DELIVERY_NOT_FOUND',
  DELIVERY_NOT_DEAD: 'WEBHOOK_DELIVERY_NOT_DEAD',
  URL_INVALID: 'WEBHOOK_URL_INVALID',
  URL_INSECURE_SCHEME: 'WEBHOOK_URL_INSECURE_SCHEME',
  URL_PRIVATE_ADDRESS: 'WEBHOOK_URL_PRIVATE_ADDRESS',
  URL_UNRESOLVABLE: 'WEBHOOK_URL_UNRESOLVABLE',
  /** Production without WEBHOOKS_SECRET_KEY: webhooks are off. */
  NOT_CONFIGURED: 'WEBHOOKS_NOT_CONFIGURED',
} as const;
export type WebhookApiReason = (typeof WebhookApiReason)[keyof typeof WebhookApiReason];

/**
 * A service's reasons by name: the shared ones, and its own two named after what it calls a
 * subscription (`N`): `<N>_NOT_FOUND` (unknown id, or another organization's) and `<N>_LIMIT_REACHED`.
 */
export type WebhookApiReasons<N extends string> = {
  readonly [K in `${N}_NOT_FOUND` | `${N}_LIMIT_REACHED`]: `WEBHOOK_${K}`;
} & typeof WebhookApiReason;

/** Every reason code of such a service. */
export type WebhookApiCode<N extends string> =
  `WEBHOOK_${N}_NOT_FOUND` | `WEBHOOK_${N}_LIMIT_REACHED` | WebhookApiReason;

/** The reasons a route taking a URL can answer, for `@ApiReasons`. */
export const WEBHOOK_URL_REFUSALS = [
  WebhookApiReason.URL_INVALID,
  WebhookApiReason.URL_INSECURE_SCHEME,
  WebhookApiReason.URL_PRIVATE_ADDRESS,
  WebhookApiReason.URL_UNRESOLVABLE,
] as const;

/** The errors the shared webhook API logic (WebhookSubscriptionsApi) throws. */
export interface WebhookApiErrorsBase {
  error(reason: WebhookApiReason, args?: Record<string, unknown>): DomainError;
  /** The subscription is unknown, or another organization's. */
  notFound(id: string): DomainError;
  /** The organization has `max` subscriptions already. */
  limitReached(max: number): DomainError;
}

export interface WebhookApiErrors<N extends string> extends WebhookApiErrorsBase {
  readonly reasons: WebhookApiReasons<N>;
  /** `defineErrors`' factory: for `throw`, and for the API reference's table of reasons. */
  readonly error: ErrorFactory<WebhookApiCode<N>>;
}

/**
 * A service's webhook error table. `noun` is what its reasons call a subscription (`ENDPOINT`:
 * `WEBHOOK_ENDPOINT_NOT_FOUND`), `idArgument` the name its not-found message gives the id. Texts are
 * the service's own, under `webhooks.errors.<reason>` (i18n/<lang>/webhooks.json).
 */
export function webhookApiErrors<N extends string>(noun: N, idArgument: string): WebhookApiErrors<N> {
  const R = WebhookApiReason;
  const notFound = `WEBHOOK_${noun}_NOT_FOUND` as WebhookApiCode<N>;
  const limitReached = `WEBHOOK_${noun}_LIMIT_REACHED` as WebhookApiCode<N>;
  // Name, code and status, in the order the API reference lists them.
  const table: [name: string, code: string, status: number][] = [
    [`${noun}_NOT_FOUND`, notFound, 404],
    ['DELIVERY_NOT_FOUND', R.DELIVERY_NOT_FOUND, 404],
    ['DELIVERY_NOT_DEAD', R.DELIVERY_NOT_DEAD, 409],
    [`${noun}_LIMIT_REACHED`, limitReached, 409],
    ['URL_INVALID', R.URL_INVALID, 422],
    ['URL_INSECURE_SCHEME', R.URL_INSECURE_SCHEME, 422],
    ['URL_PRIVATE_ADDRESS', R.URL_PRIVATE_ADDRESS, 422],
    ['URL_UNRESOLVABLE', R.URL_UNRESOLVABLE, 422],
    ['NOT_CONFIGURED', R.NOT_CONFIGURED, 503],
  ];
  const reasons = Object.fromEntries(table.map(([name, code]) => [name, code])) as WebhookApiReasons<N>;
  const error = defineErrors<WebhookApiCode<N>>(
    Object.fromEntries(
      table.map(([, code, status]) => [code, { status, messageKey: `webhooks.errors.${code}` }]),
    ) as Record<WebhookApiCode<N>, { status: number; messageKey: string }>,
  );
  return {
    reasons,
    error,
    notFound: (id) => error(notFound, { [idArgument]: id }),
    limitReached: (max) => error(limitReached, { max }),
  };
}
