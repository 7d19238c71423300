import { SetMetadata } from '@nestjs/common';

export const API_REASONS = 'api-docs:reasons';

/**
 * The error reasons an operation answers beyond what the reference derives itself (authentication,
 * authorization, validation): its domain errors and limits, e.g. `CALENDAR_VERSION_CONFLICT`.
 */
export const ApiReasons = (...reasons: [string, ...string[]]) => SetMetadata(API_REASONS, reasons);
