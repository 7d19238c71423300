import { defineErrors } from '@platform/envelope';

/**
 * Reasons of the ICS subscription feeds (docs/ics-feed.md). Texts: apps/calendar/src/i18n/<lang>/
 * calendar.json, key `calendar.errors.<reason>`.
 */
export enum IcsFeedError {
  /**
   * `GET /Calendar/ics/{token}`: a token that is malformed, unknown or revoked, or whose team view its
   * owner has left. One answer for all, after the same lookup and hash comparison: nothing tells them
   * apart.
   */
  TOKEN_NOT_FOUND = 'CALENDAR_ICS_TOKEN_NOT_FOUND',
  /** No active feed with this id of the caller (another person's or account's reads the same). */
  FEED_NOT_FOUND = 'CALENDAR_ICS_FEED_NOT_FOUND',
  /** A team feed of a team the caller is not a member of. */
  NOT_TEAM_MEMBER = 'CALENDAR_ICS_NOT_TEAM_MEMBER',
  /** The person holds ICS_FEEDS_PER_PERSON active feeds: revoke one first. */
  LIMIT_REACHED = 'CALENDAR_ICS_FEED_LIMIT_REACHED',
}

const key = (c: IcsFeedError) => `calendar.errors.${c}`;

export const icsFeedError = defineErrors<IcsFeedError>({
  [IcsFeedError.TOKEN_NOT_FOUND]: { status: 404, messageKey: key(IcsFeedError.TOKEN_NOT_FOUND) },
  [IcsFeedError.FEED_NOT_FOUND]: { status: 404, messageKey: key(IcsFeedError.FEED_NOT_FOUND) },
  [IcsFeedError.NOT_TEAM_MEMBER]: { status: 403, messageKey: key(IcsFeedError.NOT_TEAM_MEMBER) },
  [IcsFeedError.LIMIT_REACHED]: { status: 409, messageKey: key(IcsFeedError.LIMIT_REACHED) },
});
