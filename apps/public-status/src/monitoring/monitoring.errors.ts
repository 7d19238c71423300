import { defineErrors } from '@platform/envelope';

/** Monitoring check errors; messages in i18n/<lang>/monitoring.json (a namespace of their own). */
export enum MonitoringError {
  CHECK_NOT_FOUND = 'PUBLIC_STATUS_CHECK_NOT_FOUND',
  CHECK_TARGET_REFUSED = 'PUBLIC_STATUS_CHECK_TARGET_REFUSED',
  CHECK_TIMING_INVALID = 'PUBLIC_STATUS_CHECK_TIMING_INVALID',
  CHECK_STATUS_RANGE_INVALID = 'PUBLIC_STATUS_CHECK_STATUS_RANGE_INVALID',
}

const key = (c: MonitoringError) => `monitoring.errors.${c}`;

export const monitoringError = defineErrors<MonitoringError>({
  [MonitoringError.CHECK_NOT_FOUND]: { status: 404, messageKey: key(MonitoringError.CHECK_NOT_FOUND) },
  [MonitoringError.CHECK_TARGET_REFUSED]: {
    status: 400,
    messageKey: key(MonitoringError.CHECK_TARGET_REFUSED),
  },
  [MonitoringError.CHECK_TIMING_INVALID]: {
    status: 400,
    messageKey: key(MonitoringError.CHECK_TIMING_INVALID),
  },
  [MonitoringError.CHECK_STATUS_RANGE_INVALID]: {
    status: 400,
    messageKey: key(MonitoringError.CHECK_STATUS_RANGE_INVALID),
  },
});
