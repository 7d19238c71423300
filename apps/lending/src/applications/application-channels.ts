/** Where an application came from. */
export const APPLICATION_CHANNELS = ['branch', 'online', 'mobile_app', 'partner', 'call_center'] as const;
export type ApplicationChannel = (typeof APPLICATION_CHANNELS)[number];
