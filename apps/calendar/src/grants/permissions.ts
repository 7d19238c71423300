/** The spec's integration permissions; none is held until the account owner grants it. */
export const PERMISSIONS = ['Read', 'Push', 'FreeBusy', 'Share'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const isPermission = (s: string): s is Permission => (PERMISSIONS as readonly string[]).includes(s);
