import { defineErrors } from '@platform/envelope';

export enum PublicStatusError {
  BUSINESS_NOT_FOUND = 'PUBLIC_STATUS_BUSINESS_NOT_FOUND',
  PRODUCT_NOT_FOUND = 'PUBLIC_STATUS_PRODUCT_NOT_FOUND',
  RESOURCE_NOT_FOUND = 'PUBLIC_STATUS_RESOURCE_NOT_FOUND',
  INCIDENT_NOT_FOUND = 'PUBLIC_STATUS_INCIDENT_NOT_FOUND',
  MAINTENANCE_NOT_FOUND = 'PUBLIC_STATUS_MAINTENANCE_NOT_FOUND',
  SLUG_TAKEN = 'PUBLIC_STATUS_SLUG_TAKEN',
  INCIDENT_RESOLVED = 'PUBLIC_STATUS_INCIDENT_RESOLVED',
  MAINTENANCE_TRANSITION = 'PUBLIC_STATUS_MAINTENANCE_TRANSITION',
  INVALID_RANGE = 'PUBLIC_STATUS_INVALID_RANGE',
  MAINTENANCE_WINDOW_INVALID = 'PUBLIC_STATUS_MAINTENANCE_WINDOW_INVALID',
  SUBSCRIPTION_TARGET = 'PUBLIC_STATUS_SUBSCRIPTION_TARGET',
  SUBSCRIPTION_TOKEN_INVALID = 'PUBLIC_STATUS_SUBSCRIPTION_TOKEN_INVALID',
  WEBHOOK_URL_REFUSED = 'PUBLIC_STATUS_WEBHOOK_URL_REFUSED',
  SUBSCRIBERS_FULL = 'PUBLIC_STATUS_SUBSCRIBERS_FULL',
  SUBSCRIPTIONS_OFF = 'PUBLIC_STATUS_SUBSCRIPTIONS_OFF',
}

const key = (c: PublicStatusError) => `public-status.errors.${c}`;

export const publicStatusError = defineErrors<PublicStatusError>({
  [PublicStatusError.BUSINESS_NOT_FOUND]: {
    status: 404,
    messageKey: key(PublicStatusError.BUSINESS_NOT_FOUND),
  },
  [PublicStatusError.PRODUCT_NOT_FOUND]: {
    status: 404,
    messageKey: key(PublicStatusError.PRODUCT_NOT_FOUND),
  },
  [PublicStatusError.RESOURCE_NOT_FOUND]: {
    status: 404,
    messageKey: key(PublicStatusError.RESOURCE_NOT_FOUND),
  },
  [PublicStatusError.INCIDENT_NOT_FOUND]: {
    status: 404,
    messageKey: key(PublicStatusError.INCIDENT_NOT_FOUND),
  },
  [PublicStatusError.MAINTENANCE_NOT_FOUND]: {
    status: 404,
    messageKey: key(PublicStatusError.MAINTENANCE_NOT_FOUND),
  },
  [PublicStatusError.SLUG_TAKEN]: { status: 409, messageKey: key(PublicStatusError.SLUG_TAKEN) },
  [PublicStatusError.INCIDENT_RESOLVED]: {
    status: 409,
    messageKey: key(PublicStatusError.INCIDENT_RESOLVED),
  },
  [PublicStatusError.MAINTENANCE_TRANSITION]: {
    status: 409,
    messageKey: key(PublicStatusError.MAINTENANCE_TRANSITION),
  },
  [PublicStatusError.INVALID_RANGE]: { status: 400, messageKey: key(PublicStatusError.INVALID_RANGE) },
  [PublicStatusError.MAINTENANCE_WINDOW_INVALID]: {
    status: 400,
    messageKey: key(PublicStatusError.MAINTENANCE_WINDOW_INVALID),
  },
  [PublicStatusError.SUBSCRIPTION_TARGET]: {
    status: 400,
    messageKey: key(PublicStatusError.SUBSCRIPTION_TARGET),
  },
  [PublicStatusError.SUBSCRIPTION_TOKEN_INVALID]: {
    status: 400,
    messageKey: key(PublicStatusError.SUBSCRIPTION_TOKEN_INVALID),
  },
  [PublicStatusError.WEBHOOK_URL_REFUSED]: {
    status: 400,
    messageKey: key(PublicStatusError.WEBHOOK_URL_REFUSED),
  },
  [PublicStatusError.SUBSCRIBERS_FULL]: {
    status: 409,
    messageKey: key(PublicStatusError.SUBSCRIBERS_FULL),
  },
  [PublicStatusError.SUBSCRIPTIONS_OFF]: {
    status: 503,
    messageKey: key(PublicStatusError.SUBSCRIPTIONS_OFF),
  },
});
