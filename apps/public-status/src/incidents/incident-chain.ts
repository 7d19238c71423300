import type { IncidentUpdate } from './incident-update.entity';

/** The hashed form of an incident update: only fields the public payload shows. */
export const incidentUpdateCanonical = (
  u: Pick<IncidentUpdate, 'incidentId' | 'seq' | 'status' | 'body' | 'createdAt'>,
) => ({
  incident: u.incidentId,
  seq: u.seq,
  status: u.status,
  body: u.body,
  createdAt: u.createdAt.toISOString(),
});
