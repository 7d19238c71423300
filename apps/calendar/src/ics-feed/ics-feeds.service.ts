import { Injectable } from '@nestjs/common';
import { issueApiKey } from '@platform/auth';
import { RequestValidationError, type RawFieldError } from '@platform/envelope';
import { Transactions } from '@platform/persistence';
import type { PersonPrincipal } from '../auth/calendar.access';
import { CalendarConfig } from '../config/calendar.config';
import type { IcsFeed, IcsFeedView } from './ics-feed.entity';
import { IcsFeedError, icsFeedError } from './ics-feed.errors';
import { IcsFeedsRepository } from './ics-feeds.repository';
import type { CreateIcsFeedRequest } from './dto/create-ics-feed.request';
import type {
  CreatedIcsFeedResponse,
  IcsFeedResponse,
  RevokedIcsFeedResponse,
} from './dto/ics-feed.response';

/** Where feeds are served, below CALENDAR_PUBLIC_URL. */
export const ICS_FEED_PATH = '/Calendar/ics/';
/** The token prefix: `ics_<12 id>_<40 secret>` (libs/auth issueApiKey, ~238 random bits, URL-safe). */
export const ICS_TOKEN_PREFIX = 'ics';
/** Active feeds one person may hold: enough for every view they have, bounded against a flood of rows. */
export const ICS_FEEDS_PER_PERSON = 20;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const view = (f: IcsFeed): IcsFeedResponse => ({
  id: f.id,
  name: f.name,
  view: f.view,
  target: f.target,
  token_prefix: `${ICS_TOKEN_PREFIX}_${f.keyId}`,
  created_at: f.createdAt.toISOString(),
  last_used_at: f.lastUsedAt?.toISOString() ?? null,
});

/** What the view shows and that only its own target field was sent (`team` with a person view: 400). */
function targetOf(p: PersonPrincipal, req: CreateIcsFeedRequest): string {
  const problems: RawFieldError[] = [];
  const only = (field: 'team' | 'resource', wanted: IcsFeedView) => {
    if (req[field] !== undefined && req.view !== wanted) {
      problems.push({ field, rule: 'onlyWithView', args: { property: field, view: wanted } });
    }
  };
  only('team', 'team');
  only('resource', 'resource');
  if (problems.length) throw new RequestValidationError(problems);
  if (req.view === 'team') return req.team as string;
  if (req.view === 'resource') return req.resource as string;
  return p.subject;
}

/**
 * A person's ICS subscription feeds (docs/ics-feed.md): created with a session, the token shown once
 * and stored as a SHA-256 hash (libs/auth, like API keys), listed without secrets, revoked one by one.
 * A person may subscribe to what the JSON views show them: their own events, a team they belong to, a
 * resource's bookings (among the events they can see; others' private ones as busy blocks).
 */
@Injectable()
export class IcsFeedsService {
  constructor(
    private readonly feeds: IcsFeedsRepository,
    private readonly transactions: Transactions,
    private readonly cfg: CalendarConfig,
  ) {}

  async create(p: PersonPrincipal, req: CreateIcsFeedRequest): Promise<CreatedIcsFeedResponse> {
    const target = targetOf(p, req);
    if (req.view === 'team' && !(await this.feeds.isTeamMember(p.accountId, target, p.subject))) {
      throw icsFeedError(IcsFeedError.NOT_TEAM_MEMBER, { team: target });
    }
    const key = issueApiKey(ICS_TOKEN_PREFIX);
    const row = await this.transactions.run((tx) =>
      this.feeds.withinPersonBound(
        tx,
        p.accountId,
        p.subject,
        {
          max: ICS_FEEDS_PER_PERSON,
          full: (max) => icsFeedError(IcsFeedError.LIMIT_REACHED, { max }, { max }),
        },
        () =>
          this.feeds.add(
            p.accountId,
            {
              subject: p.subject,
              view: req.view,
              target,
              name: req.name?.trim() || target,
              keyId: key.keyId,
              tokenHash: key.hash,
            },
            tx,
          ),
      ),
    );
    const url = `${this.cfg.CALENDAR_PUBLIC_URL.replace(/\/+$/, '')}${ICS_FEED_PATH}${key.token}`;
    return { ...view(row), token: key.token, url, webcal_url: url.replace(/^https?:/, 'webcal:') };
  }

  async list(p: PersonPrincipal): Promise<IcsFeedResponse[]> {
    return (await this.feeds.activeOf(p.accountId, p.subject)).map(view);
  }

  /** Another person's or account's id, an unknown or malformed one, or one already revoked: 404. */
  async revoke(p: PersonPrincipal, id: string): Promise<RevokedIcsFeedResponse> {
    const row = UUID.test(id) ? await this.feeds.revoke(p.accountId, p.subject, id) : null;
    if (!row?.revokedAt) throw icsFeedError(IcsFeedError.FEED_NOT_FOUND, { id });
    return { ...view(row), revoked_at: row.revokedAt.toISOString() };
  }
}
