import { Injectable } from '@nestjs/common';
import { hashApiKey, parseApiKey, verifyApiKey } from '@platform/auth';
import { DAY_MS } from '@platform/time';
import { MAX_MASTERS_PER_QUERY, type EventSearch, type EventViewRow } from '../events/event-read.repository';
import { EventsRepository } from '../events/events.repository';
import { calendarText, type IcalSource } from '../ical/ical-writer';
import { compileMasters, occurrenceRefs } from '../recurrence/series-occurrences';
import type { IcsFeed } from './ics-feed.entity';
import { IcsFeedError, icsFeedError } from './ics-feed.errors';
import { IcsFeedTokensRepository } from './ics-feed-tokens.unscoped.repository';
import { IcsFeedsRepository } from './ics-feeds.repository';
import { ICS_TOKEN_PREFIX } from './ics-feeds.service';
import { strongEtag } from './feed-etag';

/**
 * The feed's span: from 90 days back to 366 days ahead of the current UTC day (so the bytes, and the
 * ETag, stay put within a day). Plain events overlapping it, and recurring series that reach into it
 * (all their occurrences: the client expands the RRULE itself).
 */
export const FEED_DAYS_BACK = 90;
export const FEED_DAYS_AHEAD = 366;
/** At most this many plain events (the earliest), plus MAX_MASTERS_PER_QUERY series, per feed. */
export const FEED_MAX_EVENTS = 5000;
/** REFRESH-INTERVAL and X-PUBLISHED-TTL: how often a client should fetch again. */
export const FEED_REFRESH_INTERVAL = 'PT1H';

/** A lookup that finds nothing, and a hash to compare with, for tokens that are not even well formed. */
const NO_KEY_ID = '000000000000';
const NO_HASH = hashApiKey('ics_000000000000_0000000000000000000000000000000000000000');

export interface FeedAnswer {
  body: string;
  etag: string;
}

export function feedWindow(now: Date): { from: Date; to: Date } {
  const day = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return { from: new Date(day - FEED_DAYS_BACK * DAY_MS), to: new Date(day + FEED_DAYS_AHEAD * DAY_MS) };
}

/** The view's audience, as the JSON events query builds it for this person (their teammates at most). */
function searchOf(feed: IcsFeed, range: { from: Date; to: Date }): EventSearch {
  const viewer = feed.subject;
  return {
    audience:
      feed.view === 'person'
        ? { people: [viewer], viewer }
        : feed.view === 'team'
          ? { team: feed.target, viewer }
          : { viewer },
    resources: feed.view === 'resource' ? [feed.target] : undefined,
    range,
    excludeCancelled: false,
    readable: { kind: 'person', subject: viewer },
    sort: { by: 'start', direction: 'ASC' },
    offset: 0,
    limit: FEED_MAX_EVENTS,
  };
}

/**
 * `GET /Calendar/ics/{token}`: the token's feed as one VCALENDAR (ical-writer.ts), with the JSON views'
 * query and redaction: what the feed's owner may read in full, and busy blocks for others' private
 * events. Every refusal is the same 404 after the same work (one unique-index lookup and one hash
 * comparison), so nothing tells a malformed token from an unknown or a revoked one.
 */
@Injectable()
export class IcsFeedService {
  constructor(
    private readonly tokens: IcsFeedTokensRepository,
    private readonly feeds: IcsFeedsRepository,
    private readonly events: EventsRepository,
  ) {}

  async answer(token: string, now = new Date()): Promise<FeedAnswer> {
    const feed = await this.open(token);
    const body = await this.render(feed, now);
    await this.feeds.touch(feed.accountId, feed.id);
    return { body, etag: strongEtag(body) };
  }

  private async open(token: string): Promise<IcsFeed> {
    const parsed = token.length <= 128 ? parseApiKey(token) : undefined;
    const wellFormed = parsed?.prefix === ICS_TOKEN_PREFIX && parsed.token === token;
    const row = await this.tokens.byKeyId(wellFormed ? parsed.keyId : NO_KEY_ID);
    const matches = verifyApiKey(wellFormed ? token : NO_KEY_ID, row?.tokenHash ?? NO_HASH);
    if (!wellFormed || !row || !matches || row.revokedAt) throw icsFeedError(IcsFeedError.TOKEN_NOT_FOUND);
    // A team feed shows a team its owner belongs to, for as long as they do.
    if (row.view === 'team' && !(await this.feeds.isTeamMember(row.accountId, row.target, row.subject))) {
      throw icsFeedError(IcsFeedError.TOKEN_NOT_FOUND);
    }
    return row;
  }

  private async render(feed: IcsFeed, now: Date): Promise<string> {
    const range = feedWindow(now);
    const found = await this.events.search(feed.accountId, searchOf(feed, range));
    const window = { from: range.from.getTime(), to: range.to.getTime() };
    const masters = found.masters.slice(0, MAX_MASTERS_PER_QUERY);
    const compiled = compileMasters(masters);
    const reaching = new Set(occurrenceRefs(masters, compiled, window).map((r) => r.master));
    const rows: EventViewRow[] = [...found.rows, ...masters.filter((_, i) => reaching.has(i))];
    const stored = new Map(
      (
        await this.feeds.storedIcal(
          feed.accountId,
          rows.map((r) => r.id),
        )
      ).map((s) => [s.id, s]),
    );
    const details = new Map(rows.map((r) => [r.id, r.details]));
    const events: IcalSource[] = rows
      .map((r) => ({
        ...r,
        icalUid: stored.get(r.id)?.icalUid ?? null,
        ical: stored.get(r.id)?.ical ?? null,
      }))
      .sort(
        (a, b) =>
          (a.startsAt?.getTime() ?? 0) - (b.startsAt?.getTime() ?? 0) ||
          (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      );
    return calendarText(events, {
      busyOnly: (e) => details.get(e.id) !== true,
      name: feed.name,
      refreshInterval: FEED_REFRESH_INTERVAL,
    });
  }
}
