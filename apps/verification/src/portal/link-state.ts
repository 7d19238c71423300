import type { LinkState } from './portal-page';
import { PortalError } from './portal.errors';

/** Statuses in which a case takes the borrower's documents (and so a new upload link). */
export const PORTAL_OPEN_STATUSES: readonly string[] = ['AwaitingApplicant', 'DocumentsReceived'];

/**
 * What a presented token allows (docs/verification/portal.md, "Token rules"), in this order: no row ->
 * invalid; used -> used; past `expires_at` -> expired; case no longer taking documents -> closed.
 * Used wins over expired: a borrower who finished should not be told their link simply ran out.
 */
export function linkStateOf(
  token: { usedAt: Date | null; expiresAt: Date } | null,
  caseStatus: string | null,
  now: Date,
): LinkState {
  if (!token || caseStatus === null) return 'invalid';
  if (token.usedAt) return 'used';
  if (token.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (!PORTAL_OPEN_STATUSES.includes(caseStatus)) return 'closed';
  return 'open';
}

/** The error a JSON call answers for a link that is not open. */
export const LINK_STATE_ERROR: Record<Exclude<LinkState, 'open'>, PortalError> = {
  invalid: PortalError.LINK_NOT_FOUND,
  used: PortalError.LINK_USED,
  expired: PortalError.LINK_EXPIRED,
  closed: PortalError.CASE_CLOSED,
};
