/**
 * Signed webhook delivery for every service that sends webhooks (decision 0018): subscriptions with
 * encrypted, rotating secrets; deliveries enqueued in the business transaction; a stateless worker
 * (SKIP LOCKED leases, backoff with full jitter, dead letters, redrive); a delivery log;
 * and the parts of a service's webhook API that do not depend on its conventions (webhook-api.*: error
 * reasons, views, the subscriptions logic, documented and validated request and response classes).
 * The SSRF guard and the backoff schedule are libs/network's (@platform/network).
 */
export {
  WebhookHeader,
  DEFAULT_TOLERANCE_SECONDS,
  computeWebhookSignature,
  signWebhook,
  verifyWebhookSignature,
  type SignInput,
  type WebhookVerification,
  type HeaderSource,
} from './webhook-signature';
export { WebhookSecretBox, generateWebhookSecret } from './webhook-secret-box';
export {
  webhookTablesDdl,
  dropWebhookTablesDdl,
  webhookEnabledDdl,
  dropWebhookEnabledDdl,
  MAX_LOGGED_RESPONSE_BYTES,
  type WebhookDeliveryStatus,
} from './webhook-tables';
export { webhookTablesMigration, webhookEnabledMigration } from './webhook-tables.migration';
export {
  WebhookSubscriptions,
  type WebhookSubscription,
  type WebhookSubscriptionWithSecret,
  type WebhookSubscriptionBound,
  type CreateWebhookSubscription,
  type UpdateWebhookSubscription,
  type WebhookSubscriptionsOptions,
} from './webhook-subscriptions.service';
export {
  enqueueWebhook,
  MAX_WEBHOOK_PAYLOAD_BYTES,
  type EnqueueWebhook,
  type EnqueuedDelivery,
} from './webhook-enqueue';
export {
  WebhookDeliveries,
  redriveWebhooks,
  type WebhookDelivery,
  type WebhookAttempt,
  type RedriveFilter,
} from './webhook-deliveries';
export { backoffCapMs, backoffDelayMs, DEFAULT_RETRY_SCHEDULE, type RetrySchedule } from '@platform/network';
export {
  WebhookDeliveryWorker,
  webhookBody,
  type WebhookWorkerOptions,
  type WorkerRoundResult,
} from './webhook-delivery.worker';
export {
  WebhooksModule,
  WebhookWorkerLifecycle,
  WEBHOOKS_OPTIONS,
  type WebhooksModuleOptions,
} from './webhooks.module';
export { webhooksOptionsFrom, withWebhookSettings, type WebhooksConfig } from './webhooks.options';
export {
  WebhookApiReason,
  WEBHOOK_URL_REFUSALS,
  webhookApiErrors,
  type WebhookApiReasons,
  type WebhookApiCode,
  type WebhookApiErrors,
  type WebhookApiErrorsBase,
} from './webhook-api.errors';
export {
  webhookSubscriptionView,
  webhookDeliveryView,
  webhookDeliveryDetailView,
  webhookAttemptView,
  type WebhookSubscriptionView,
  type WebhookDeliveryView,
  type WebhookAttemptView,
} from './webhook-api.views';
export {
  WebhookSubscriptionsApi,
  type WebhookSubscriptionStore,
  type WebhookSubscriptionInput,
  type WebhookSubscriptionChange,
  type WebhookSubscriptionWithSecretView,
} from './webhook-api.service';
export {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EXAMPLE_ID,
  WEBHOOK_EXAMPLE_AT,
  WebhookDeletedResponseBase,
  WebhookDeliveryStatusFilter,
  webhookCreateRequest,
  webhookUpdateRequest,
  webhookRotateRequest,
  webhookSubscriptionResponse,
  withWebhookSecret,
  webhookAttemptResponse,
  webhookDeliveryResponse,
  withWebhookAttemptLog,
  type WebhookApiDocs,
  type WebhookAttemptDocs,
  type WebhookDeliveryDocs,
} from './webhook-api.dto';
