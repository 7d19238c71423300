/** Access scopes of partner keys, one read and one write scope per subject area of the spec. */
export const LENDING_AREAS = [
  'applications',
  'customers',
  'loans',
  'scoring',
  'compliance',
  'collection',
  'funding',
  'reporting',
] as const;

export const LENDING_SCOPES = LENDING_AREAS.flatMap((a) => [`${a}:read`, `${a}:write`]);
