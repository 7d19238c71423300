import { SetMetadata } from '@nestjs/common';

/** The spec's integration permissions; none is held until the account owner grants it. */
export const PERMISSIONS = ['Read', 'Push', 'FreeBusy', 'Share'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const REQUIRED_PERMISSION = 'calendar:required-permission';

/**
 * A product key needs one of these grants on the addressed account. Reads accept `Read` (details) or
 * `FreeBusy` (busy blocks only); the handler redacts for the latter.
 */
export const RequirePermission = (...anyOf: Permission[]) => SetMetadata(REQUIRED_PERMISSION, anyOf);
