import { defineErrors } from '@platform/envelope';

/**
 * The applications area's error reasons (docs/lending/applications.md, "Errors"). Texts:
 * apps/lending/src/i18n/<lang>/applications.json, key `applications.errors.<reason>`, in the request's
 * Language-Code; status names in them come localised too.
 */
export enum ApplicationError {
  /** Unknown id, or another organization's: the same answer, so ids cannot be probed. */
  NOT_FOUND = 'APPLICATION_NOT_FOUND',
  /** The customer is not this organization's (or does not exist). */
  CUSTOMER_NOT_FOUND = 'APPLICATION_CUSTOMER_NOT_FOUND',
  /** The workflow does not allow this move from the current status; the text names both statuses. */
  TRANSITION_NOT_ALLOWED = 'APPLICATION_TRANSITION_NOT_ALLOWED',
  /** SubmitApplication of a draft without customer, requested loan or applicant (rows from before issue 12). */
  INCOMPLETE = 'APPLICATION_INCOMPLETE',
  /** UpdateApplication on an application that is no longer a draft. */
  NOT_EDITABLE = 'APPLICATION_NOT_EDITABLE',
  /** RunChecks while a run is still going (within its lease). */
  CHECKS_RUNNING = 'APPLICATION_CHECKS_RUNNING',
  /** RunCheck on a step that did not end in an error, or outside under_review. */
  CHECK_NOT_RETRYABLE = 'APPLICATION_CHECK_NOT_RETRYABLE',
}

const key = (c: ApplicationError) => `applications.errors.${c}`;

export const applicationError = defineErrors<ApplicationError>({
  [ApplicationError.NOT_FOUND]: { status: 404, messageKey: key(ApplicationError.NOT_FOUND) },
  [ApplicationError.CUSTOMER_NOT_FOUND]: {
    status: 404,
    messageKey: key(ApplicationError.CUSTOMER_NOT_FOUND),
  },
  [ApplicationError.TRANSITION_NOT_ALLOWED]: {
    status: 409,
    messageKey: key(ApplicationError.TRANSITION_NOT_ALLOWED),
  },
  [ApplicationError.INCOMPLETE]: { status: 409, messageKey: key(ApplicationError.INCOMPLETE) },
  [ApplicationError.NOT_EDITABLE]: { status: 409, messageKey: key(ApplicationError.NOT_EDITABLE) },
  [ApplicationError.CHECKS_RUNNING]: { status: 409, messageKey: key(ApplicationError.CHECKS_RUNNING) },
  [ApplicationError.CHECK_NOT_RETRYABLE]: {
    status: 409,
    messageKey: key(ApplicationError.CHECK_NOT_RETRYABLE),
  },
});
