import { Injectable } from '@nestjs/common';
import type { PersonPrincipal } from '../auth/calendar.access';
import { eventResourceText, personUri } from '../ical/ical-writer';
import { DavError, davError } from './dav.errors';
import {
  DEFAULT_CALENDAR,
  DavRepository,
  type CalendarPatch,
  type DavCollection,
  type DavMember,
} from './dav.repository';
import {
  APPLE,
  CALDAV,
  CS,
  DAV,
  hrefXml,
  multistatus,
  propResponse,
  propStatusResponse,
  propTable,
  statusResponse,
  type PropName,
  type PropRequest,
  type PropTable,
} from './dav-multistatus';
import { expandedText, freeBusyText, overlapsRange, type Range } from './dav-occurrences';
import { DAV_ROOT, allowedMethods, hrefOf, hrefs, parseDavPath, type DavTarget } from './dav-paths';
import { DavWriteService } from './dav-write.service';
import { child, childrenNamed, escapeXml, is, type XmlElement } from './dav-xml';
import { readCalendarObject } from './ical-reader';

/** 405 with the methods the resource does take. */
export const notAllowed = (t: DavTarget) =>
  davError(DavError.METHOD_NOT_ALLOWED, {}, { allow: allowedMethods(t) });

/** How a calendar shows itself: its slug, names and color. */
interface CalendarLook {
  slug: string;
  displayName: string | null;
  color: string | null;
  description: string | null;
}

const DEFAULT_LOOK: CalendarLook = {
  slug: DEFAULT_CALENDAR,
  displayName: null,
  color: null,
  description: null,
};

/** An answer the controller sends as it is. */
export interface DavAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface DavCall {
  principal: PersonPrincipal;
  target: DavTarget;
  depth: '0' | '1' | 'infinity' | undefined;
  headers: Record<string, string | string[] | undefined>;
  body: XmlElement | null;
  rawBody: string;
  requestId: string;
}

/** RFC 4791 5.2.5: the largest resource a PUT may store. */
export const MAX_RESOURCE_BYTES = 1_048_576;
export const MAX_CALENDARS_PER_PERSON = 50;
export const MAX_MULTIGET_HREFS = 1000;
/** Changes one sync-collection answer reports at most (RFC 6578 3.6: the rest on the next request). */
export const MAX_SYNC_CHANGES = 10_000;
const SYNC_PREFIX = 'http://calendar.platform/ns/sync/';
const XML = { 'Content-Type': 'application/xml; charset=utf-8' };
const ICS = 'text/calendar; charset=utf-8';
const SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const etagOf = (m: Pick<DavMember, 'version'>) => `"${m.version}"`;
const syncToken = (cursor: number) => `${SYNC_PREFIX}${cursor}`;
const header = (h: DavCall['headers'], name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

/** The entity tags of an If-Match / If-None-Match header; `*` as itself. */
export function entityTags(value: string | undefined): string[] | '*' | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '*') return '*';
  return (value.match(/(?:W\/)?"[^"]*"/g) ?? []).map((t) => t.replace(/^W\//, ''));
}

/** A CalDAV time (RFC 4791 9.9: UTC, `YYYYMMDDTHHMMSSZ`) as epoch ms; undefined when absent. */
function davTime(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(v.trim());
  if (!m) throw davError(DavError.INVALID_FILTER, { value: v.slice(0, 40) });
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  if (y < 1 || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 60) {
    throw davError(DavError.INVALID_FILTER, { value: v.slice(0, 40) });
  }
  return ms;
}

function timeRange(el: XmlElement | undefined): Range | undefined {
  if (!el) return undefined;
  const from = davTime(el.attrs.start) ?? Date.parse('0001-01-01T00:00:00Z');
  const to = davTime(el.attrs.end) ?? Date.parse('9999-12-31T23:59:59Z');
  if (to <= from) throw davError(DavError.INVALID_FILTER, { value: `${el.attrs.start}..${el.attrs.end}` });
  return { from, to };
}

/** `<D:prop>`, `<D:allprop/>` or `<D:propname/>` of a PROPFIND or REPORT body (none: allprop). */
function propRequestOf(root: XmlElement | null): PropRequest {
  if (!root) return { kind: 'allprop' };
  if (child(root, DAV, 'propname')) return { kind: 'propname' };
  const prop = child(root, DAV, 'prop');
  if (!prop) return { kind: 'allprop' };
  return {
    kind: 'prop',
    props: prop.children.map((c) => ({ ns: c.ns, name: c.name })),
    calendarData: child(prop, CALDAV, 'calendar-data'),
  };
}

/** A VEVENT prop-filter of a calendar-query (RFC 4791 9.7.2), matched on the resource's text. */
interface PropFilter {
  name: string;
  defined: boolean;
  match?: { text: string; negate: boolean };
}

interface QueryFilter {
  /** false: the filter asks for components we never hold (VTODO...), so nothing matches. */
  events: boolean;
  range?: Range;
  props: PropFilter[];
}

function filterOf(root: XmlElement): QueryFilter {
  const filter = child(root, CALDAV, 'filter');
  const cal = child(filter, CALDAV, 'comp-filter');
  if (!filter || !cal) throw davError(DavError.INVALID_FILTER, { value: 'filter' });
  if ((cal.attrs.name ?? '').toUpperCase() !== 'VCALENDAR') return { events: false, props: [] };
  if (child(cal, CALDAV, 'is-not-defined')) return { events: false, props: [] };
  const subs = childrenNamed(cal, CALDAV, 'comp-filter');
  if (!subs.length) return { events: true, props: [] };
  const ev = subs.find((s) => (s.attrs.name ?? '').toUpperCase() === 'VEVENT');
  if (!ev || child(ev, CALDAV, 'is-not-defined')) return { events: false, props: [] };
  return {
    events: true,
    range: timeRange(child(ev, CALDAV, 'time-range')),
    props: childrenNamed(ev, CALDAV, 'prop-filter').map((p) => {
      const tm = child(p, CALDAV, 'text-match');
      return {
        name: (p.attrs.name ?? '').toUpperCase(),
        defined: !child(p, CALDAV, 'is-not-defined'),
        ...(tm ? { match: { text: tm.text, negate: tm.attrs['negate-condition'] === 'yes' } } : {}),
      };
    }),
  };
}

/** Unfolded property values of a resource's VEVENTs, by property name (for prop-filters). */
function propertyValues(text: string, name: string): string[] {
  const unfolded = text.replace(/\r?\n[ \t]/g, '');
  const out: string[] = [];
  let inEvent = false;
  for (const line of unfolded.split(/\r?\n/)) {
    if (line === 'BEGIN:VEVENT') inEvent = true;
    else if (line === 'END:VEVENT') inEvent = false;
    else if (inEvent) {
      const m = /^([A-Za-z0-9-]+)[;:]/.exec(line);
      if (m && m[1].toUpperCase() === name) {
        const colon = line.indexOf(':', m[1].length);
        out.push(
          line
            .slice(colon + 1)
            .replace(/\\([,;\\nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c)),
        );
      }
    }
  }
  return out;
}

function propFiltersMatch(text: string, filters: PropFilter[]): boolean {
  return filters.every((f) => {
    const values = propertyValues(text, f.name);
    if (!f.defined) return values.length === 0;
    if (!values.length) return false;
    if (!f.match) return true;
    const needle = f.match.text.toLowerCase();
    const hit = values.some((v) => v.toLowerCase().includes(needle));
    return f.match.negate ? !hit : hit;
  });
}

const httpDate = (d: Date | string) => new Date(d).toUTCString();

/**
 * The CalDAV server (RFC 4918, 4791, 6578, 6764; docs/caldav.md) over the calendar's events: a person's
 * `default` calendar holds their own events and the product events they take part in (read-only here),
 * other calendars only their own events. Every call acts on the caller's own principal.
 */
@Injectable()
export class CaldavService {
  constructor(
    private readonly dav: DavRepository,
    private readonly writes: DavWriteService,
  ) {}

  /** The caller's own namespace only: another person's paths are refused without looking. */
  private own(call: DavCall): DavCollection | null {
    const t = call.target;
    if (t.kind === 'root' || t.kind === 'principals') return null;
    if (t.account !== call.principal.accountId || t.person !== call.principal.subject) {
      throw davError(DavError.NOT_YOURS);
    }
    return {
      accountId: call.principal.accountId,
      person: call.principal.subject,
      calendar: t.kind === 'calendar' || t.kind === 'object' ? t.calendar : DEFAULT_CALENDAR,
    };
  }

  /**
   * The calendar exists: `default` (its names and color, once a PROPPATCH set them, in a row of its
   * own), or one the person made.
   */
  private async calendarRow(c: DavCollection): Promise<CalendarLook> {
    const row = await this.dav.calendar(c.accountId, c.person, c.calendar);
    if (row) return row;
    if (c.calendar === DEFAULT_CALENDAR) return DEFAULT_LOOK;
    throw davError(DavError.NOT_FOUND);
  }

  private principalHref(p: PersonPrincipal) {
    return hrefs.principal(p.accountId, p.subject);
  }

  // ---- properties --------------------------------------------------------------------------------

  private commonProps(p: PersonPrincipal): [string, string, () => string | null][] {
    return [
      [DAV, 'current-user-principal', () => hrefXml(this.principalHref(p))],
      [DAV, 'principal-collection-set', () => hrefXml('/dav/principals/')],
    ];
  }

  private rootProps(p: PersonPrincipal): PropTable {
    return propTable([
      [DAV, 'resourcetype', () => '<d:collection/>'],
      [DAV, 'displayname', () => 'CalDAV'],
      ...this.commonProps(p),
    ]);
  }

  private principalProps(p: PersonPrincipal): PropTable {
    const home = hrefs.home(p.accountId, p.subject);
    return propTable([
      [DAV, 'resourcetype', () => '<d:principal/>'],
      [DAV, 'displayname', () => escapeXml(p.subject)],
      [DAV, 'principal-URL', () => hrefXml(this.principalHref(p))],
      [CALDAV, 'calendar-home-set', () => hrefXml(home)],
      [CALDAV, 'calendar-user-address-set', () => hrefXml(personUri(p.subject))],
      [CALDAV, 'calendar-user-type', () => 'INDIVIDUAL'],
      [DAV, 'supported-report-set', () => ''],
      ...this.commonProps(p),
    ]);
  }

  private homeProps(p: PersonPrincipal): PropTable {
    return propTable([
      [DAV, 'resourcetype', () => '<d:collection/>'],
      [DAV, 'displayname', () => escapeXml(p.subject)],
      [DAV, 'owner', () => hrefXml(this.principalHref(p))],
      [
        DAV,
        'current-user-privilege-set',
        () => '<d:privilege><d:read/></d:privilege><d:privilege><d:bind/></d:privilege>',
      ],
      ...this.commonProps(p),
    ]);
  }

  private calendarProps(
    p: PersonPrincipal,
    cal: { slug: string; displayName: string | null; color: string | null; description: string | null },
    token: string,
  ): PropTable {
    const reports = ['calendar-query', 'calendar-multiget', 'free-busy-query']
      .map((r) => `<d:supported-report><d:report><cal:${r}/></d:report></d:supported-report>`)
      .join('');
    return propTable([
      [DAV, 'resourcetype', () => '<d:collection/><cal:calendar/>'],
      [
        DAV,
        'displayname',
        () => escapeXml(cal.displayName ?? (cal.slug === DEFAULT_CALENDAR ? 'Calendar' : cal.slug)),
      ],
      [CALDAV, 'calendar-description', () => (cal.description === null ? null : escapeXml(cal.description))],
      [APPLE, 'calendar-color', () => (cal.color === null ? null : escapeXml(cal.color))],
      [CALDAV, 'supported-calendar-component-set', () => '<cal:comp name="VEVENT"/>'],
      [
        CALDAV,
        'supported-calendar-data',
        () => '<cal:calendar-data content-type="text/calendar" version="2.0"/>',
      ],
      [CALDAV, 'max-resource-size', () => String(MAX_RESOURCE_BYTES)],
      [CS, 'getctag', () => escapeXml(token)],
      [DAV, 'sync-token', () => escapeXml(token)],
      [
        DAV,
        'supported-report-set',
        () => `${reports}<d:supported-report><d:report><d:sync-collection/></d:report></d:supported-report>`,
      ],
      [
        DAV,
        'current-user-privilege-set',
        () =>
          '<d:privilege><d:read/></d:privilege><d:privilege><d:write/></d:privilege><d:privilege><d:write-content/></d:privilege><d:privilege><d:bind/></d:privilege><d:privilege><d:unbind/></d:privilege><d:privilege><cal:read-free-busy/></d:privilege>',
      ],
      [DAV, 'owner', () => hrefXml(this.principalHref(p))],
      ...this.commonProps(p),
    ]);
  }

  /** The text of a member as served: a person's own as stored, a product event rendered. */
  private text(m: DavMember): string {
    return m.personal && m.ical ? m.ical : eventResourceText(m);
  }

  private memberProps(m: DavMember, calendarData?: XmlElement): PropTable {
    let text: string | undefined;
    const body = () => (text ??= this.text(m));
    const expand = child(calendarData, CALDAV, 'expand');
    return propTable([
      [DAV, 'getetag', () => escapeXml(etagOf(m))],
      [DAV, 'getcontenttype', () => `${ICS}; component=vevent`],
      [DAV, 'getlastmodified', () => httpDate(m.updatedAt)],
      [DAV, 'getcontentlength', () => String(Buffer.byteLength(body(), 'utf8'))],
      [DAV, 'resourcetype', () => ''],
      [
        DAV,
        'current-user-privilege-set',
        () =>
          m.personal
            ? '<d:privilege><d:read/></d:privilege><d:privilege><d:write/></d:privilege><d:privilege><d:write-content/></d:privilege>'
            : '<d:privilege><d:read/></d:privilege>',
      ],
      [
        CALDAV,
        'calendar-data',
        () => escapeXml(expand ? expandedText(m, body(), timeRange(expand) as Range) : body()),
      ],
    ]);
  }

  private memberName(m: DavMember): string {
    return m.personal && m.davName ? m.davName : `${m.id}.ics`;
  }

  private memberHref(c: DavCollection, m: DavMember): string {
    return hrefs.object(c.accountId, c.person, c.calendar, this.memberName(m));
  }

  // ---- methods -----------------------------------------------------------------------------------

  async propfind(call: DavCall): Promise<DavAnswer> {
    if (call.depth === 'infinity') throw davError(DavError.DEPTH_INFINITY);
    const req = propRequestOf(call.body);
    if (call.body && !is(call.body, DAV, 'propfind'))
      throw davError(DavError.BODY_INVALID, { reason: 'propfind' });
    const p = call.principal;
    const t = call.target;
    const deep = call.depth === '1';
    const responses: string[] = [];
    const c = this.own(call);
    switch (t.kind) {
      case 'root':
        responses.push(propResponse(DAV_ROOT, this.rootProps(p), req));
        break;
      case 'principals':
        responses.push(propResponse('/dav/principals/', this.rootProps(p), req));
        if (deep) responses.push(propResponse(this.principalHref(p), this.principalProps(p), req));
        break;
      case 'principal':
        responses.push(propResponse(hrefOf(t), this.principalProps(p), req));
        break;
      case 'home': {
        responses.push(propResponse(hrefOf(t), this.homeProps(p), req));
        if (deep) {
          const token = await this.syncTokenOf(p);
          const made = await this.dav.calendars(p.accountId, p.subject);
          const all = made.some((m) => m.slug === DEFAULT_CALENDAR) ? made : [DEFAULT_LOOK, ...made];
          for (const cal of all) {
            responses.push(
              propResponse(
                hrefs.calendar(p.accountId, p.subject, cal.slug),
                this.calendarProps(p, cal, token),
                req,
              ),
            );
          }
        }
        break;
      }
      case 'calendar': {
        const coll = c as DavCollection;
        const cal = await this.calendarRow(coll);
        const token = await this.syncTokenOf(p);
        responses.push(propResponse(hrefOf(t), this.calendarProps(p, cal, token), req));
        if (deep) {
          const calendarData = req.kind === 'prop' ? req.calendarData : undefined;
          for (const m of await this.dav.members(coll)) {
            responses.push(propResponse(this.memberHref(coll, m), this.memberProps(m, calendarData), req));
          }
        }
        break;
      }
      case 'object': {
        const coll = c as DavCollection;
        await this.calendarRow(coll);
        const m = await this.dav.byName(coll, t.name);
        if (!m) throw davError(DavError.NOT_FOUND);
        const calendarData = req.kind === 'prop' ? req.calendarData : undefined;
        responses.push(propResponse(this.memberHref(coll, m), this.memberProps(m, calendarData), req));
        break;
      }
    }
    return { status: 207, headers: XML, body: multistatus(responses) };
  }

  /** The account's sync token (and CTag): its journal cursor now. */
  private async syncTokenOf(p: PersonPrincipal): Promise<string> {
    return syncToken(await this.dav.lastCursor(p.accountId));
  }

  async report(call: DavCall): Promise<DavAnswer> {
    const root = call.body;
    if (!root) throw davError(DavError.BODY_INVALID, { reason: 'REPORT needs a body' });
    const c = this.own(call);
    const t = call.target;
    if (is(root, DAV, 'expand-property') || is(root, DAV, 'principal-property-search')) {
      // Principal reports some clients probe: nothing to expand or find beyond the caller themselves.
      return { status: 207, headers: XML, body: multistatus([]) };
    }
    if (t.kind !== 'calendar' && t.kind !== 'object') throw davError(DavError.UNSUPPORTED_REPORT);
    const coll = c as DavCollection;
    await this.calendarRow(coll);
    if (is(root, CALDAV, 'calendar-query')) return this.calendarQuery(coll, t, root);
    if (is(root, CALDAV, 'calendar-multiget')) return this.multiget(coll, root);
    if (is(root, CALDAV, 'free-busy-query')) return this.freeBusy(coll, root);
    if (is(root, DAV, 'sync-collection') && t.kind === 'calendar')
      return this.syncCollection(call.principal, coll, root);
    throw davError(DavError.UNSUPPORTED_REPORT);
  }

  private async calendarQuery(c: DavCollection, t: DavTarget, root: XmlElement): Promise<DavAnswer> {
    const req = propRequestOf(root);
    const filter = filterOf(root);
    if (!filter.events) return { status: 207, headers: XML, body: multistatus([]) };
    const range = filter.range;
    let members: DavMember[];
    if (t.kind === 'object') {
      members = await this.dav.byNames(c, [t.name]);
      if (range) members = members.filter((m) => overlapsRange(m, range));
    } else if (range) {
      // The range is decided on the series columns; only the matches are read in full.
      const spans = await this.dav.spansIn(c, { from: new Date(range.from), to: new Date(range.to) });
      members = await this.dav.byIds(
        c,
        spans.filter((s) => overlapsRange(s, range)).map((s) => s.id),
      );
    } else members = await this.dav.members(c);
    if (filter.props.length) members = members.filter((m) => propFiltersMatch(this.text(m), filter.props));
    const calendarData = req.kind === 'prop' ? req.calendarData : undefined;
    const responses = members.map((m) =>
      propResponse(this.memberHref(c, m), this.memberProps(m, calendarData), req),
    );
    return { status: 207, headers: XML, body: multistatus(responses) };
  }

  private async multiget(c: DavCollection, root: XmlElement): Promise<DavAnswer> {
    const req = propRequestOf(root);
    const wanted = childrenNamed(root, DAV, 'href').map((h) => h.text.trim());
    if (wanted.length > MAX_MULTIGET_HREFS)
      throw davError(DavError.TOO_MANY_HREFS, { max: MAX_MULTIGET_HREFS });
    const names = new Map<string, string>();
    for (const href of wanted) {
      let target: DavTarget | null;
      try {
        target = parseDavPath(href);
      } catch {
        target = null;
      }
      if (
        target?.kind === 'object' &&
        target.account === c.accountId &&
        target.person === c.person &&
        target.calendar === c.calendar
      ) {
        names.set(href, target.name);
      }
    }
    const found = await this.dav.byNames(c, [...new Set(names.values())]);
    const byName = new Map(found.map((m) => [this.memberName(m), m]));
    const calendarData = req.kind === 'prop' ? req.calendarData : undefined;
    const responses = wanted.map((href) => {
      const name = names.get(href);
      const m = name === undefined ? undefined : byName.get(name);
      return m
        ? propResponse(this.memberHref(c, m), this.memberProps(m, calendarData), req)
        : statusResponse(href, 404);
    });
    return { status: 207, headers: XML, body: multistatus(responses) };
  }

  private async freeBusy(c: DavCollection, root: XmlElement): Promise<DavAnswer> {
    const range = timeRange(child(root, CALDAV, 'time-range'));
    if (!range) throw davError(DavError.INVALID_FILTER, { value: 'time-range' });
    const spans = await this.dav.spansIn(c, { from: new Date(range.from), to: new Date(range.to) });
    return { status: 200, headers: { 'Content-Type': ICS }, body: freeBusyText(spans, range) };
  }

  private async syncCollection(p: PersonPrincipal, c: DavCollection, root: XmlElement): Promise<DavAnswer> {
    const req = propRequestOf(root);
    const sent = child(root, DAV, 'sync-token')?.text.trim() ?? '';
    const level = child(root, DAV, 'sync-level')?.text.trim();
    if (level !== undefined && level !== '1') throw davError(DavError.UNSUPPORTED_REPORT);
    // Read first: a change committed while this runs is reported again next time, never lost.
    const now = await this.dav.lastCursor(p.accountId);
    let token = now;
    const calendarData = req.kind === 'prop' ? req.calendarData : undefined;
    const responses: string[] = [];
    if (sent === '') {
      for (const m of await this.dav.members(c)) {
        responses.push(propResponse(this.memberHref(c, m), this.memberProps(m, calendarData), req));
      }
    } else {
      const since = sent.startsWith(SYNC_PREFIX) ? Number(sent.slice(SYNC_PREFIX.length)) : NaN;
      if (!Number.isSafeInteger(since) || since < 0 || since > now)
        throw davError(DavError.SYNC_TOKEN_INVALID);
      // At most a page of changes (the client's DAV:limit, else MAX_SYNC_CHANGES), in the order of
      // each event's last change: when cut short, the token is the last change returned, and the
      // request-URI is marked 507 (RFC 6578 3.6), so the client asks again for the rest.
      const nresults = Number(child(child(root, DAV, 'limit'), DAV, 'nresults')?.text.trim());
      const limit =
        Number.isSafeInteger(nresults) && nresults > 0
          ? Math.min(nresults, MAX_SYNC_CHANGES)
          : MAX_SYNC_CHANGES;
      const changes = await this.dav.changesSince(c, since, limit);
      for (const ch of changes) {
        if (ch.member) {
          responses.push(
            propResponse(this.memberHref(c, ch.member), this.memberProps(ch.member, calendarData), req),
          );
        } else {
          const name = ch.personal ? ch.davName : `${ch.eventId}.ics`;
          if (name)
            responses.push(statusResponse(hrefs.object(c.accountId, c.person, c.calendar, name), 404));
        }
      }
      if (changes.length === limit) {
        token = changes[changes.length - 1].cursor;
        responses.push(statusResponse(hrefs.calendar(c.accountId, c.person, c.calendar), 507));
      }
    }
    return {
      status: 207,
      headers: XML,
      body: multistatus(responses, `<d:sync-token>${escapeXml(syncToken(token))}</d:sync-token>`),
    };
  }

  async get(call: DavCall, head: boolean): Promise<DavAnswer> {
    const c = this.own(call);
    const t = call.target;
    if (t.kind !== 'object') {
      if (t.kind === 'calendar') await this.calendarRow(c as DavCollection);
      throw notAllowed(t);
    }
    const coll = c as DavCollection;
    await this.calendarRow(coll);
    const m = await this.dav.byName(coll, t.name);
    if (!m) throw davError(DavError.NOT_FOUND);
    const etag = etagOf(m);
    const ifMatch = entityTags(header(call.headers, 'if-match'));
    if (ifMatch !== undefined && ifMatch !== '*' && !ifMatch.includes(etag)) {
      throw davError(DavError.PRECONDITION_FAILED);
    }
    const ifNone = entityTags(header(call.headers, 'if-none-match'));
    const headers = {
      ETag: etag,
      'Last-Modified': httpDate(m.updatedAt),
      'Cache-Control': 'private, no-cache',
    };
    if (ifNone === '*' || ifNone?.includes(etag)) return { status: 304, headers };
    const body = this.text(m);
    return {
      status: 200,
      headers: { ...headers, 'Content-Type': ICS, 'Content-Length': String(Buffer.byteLength(body, 'utf8')) },
      ...(head ? {} : { body }),
    };
  }

  async put(call: DavCall, contentType: string | undefined): Promise<DavAnswer> {
    const c = this.own(call);
    const t = call.target;
    if (t.kind !== 'object') throw notAllowed(t);
    const coll = c as DavCollection;
    await this.calendarRow(coll);
    if (contentType && !/^text\/calendar\b/i.test(contentType.trim())) {
      throw davError(DavError.UNSUPPORTED_MEDIA_TYPE, { type: contentType.slice(0, 80) });
    }
    if (Array.from(t.name).length > 255)
      throw davError(DavError.CALENDAR_NAME_INVALID, { name: t.name.slice(0, 40) });
    const obj = readCalendarObject(call.rawBody, call.principal.subject);
    // The stored text is refolded: a body just under the limit can grow past it.
    if (Buffer.byteLength(obj.ical, 'utf8') > MAX_RESOURCE_BYTES) {
      throw davError(DavError.RESOURCE_TOO_LARGE, { max: MAX_RESOURCE_BYTES });
    }
    const { current, uidHolder } = await this.dav.forPut(coll, t.name, obj.uid);
    if (current && !current.personal) {
      throw davError(DavError.PRODUCT_EVENT_READ_ONLY, { product: current.productId });
    }
    const ifMatch = entityTags(header(call.headers, 'if-match'));
    const ifNone = entityTags(header(call.headers, 'if-none-match'));
    if (ifNone === '*' && current) throw davError(DavError.PRECONDITION_FAILED);
    if (Array.isArray(ifNone) && current && ifNone.includes(etagOf(current)))
      throw davError(DavError.PRECONDITION_FAILED);
    if (ifMatch !== undefined && (!current || (ifMatch !== '*' && !ifMatch.includes(etagOf(current))))) {
      throw davError(DavError.PRECONDITION_FAILED);
    }
    if (uidHolder !== null && uidHolder !== t.name) {
      throw davError(
        DavError.UID_CONFLICT,
        { uid: obj.uid },
        { href: hrefs.object(coll.accountId, coll.person, coll.calendar, uidHolder) },
      );
    }
    const written = await this.writes.put(coll, t.name, obj, current, call.requestId);
    // RFC 4791 5.3.4: no ETag when the stored text is not byte for byte what was sent.
    const same = obj.ical === call.rawBody;
    const headers: Record<string, string> = same ? { ETag: `"${written.version}"` } : {};
    if (written.created) headers.Location = hrefOf(t);
    return { status: written.created ? 201 : 204, headers };
  }

  async delete(call: DavCall): Promise<DavAnswer> {
    const c = this.own(call);
    const t = call.target;
    if (t.kind === 'calendar') {
      const coll = c as DavCollection;
      if (coll.calendar === DEFAULT_CALENDAR) throw notAllowed(t);
      const done = await this.dav.deleteEmptyCalendar(coll.accountId, coll.person, coll.calendar);
      if (done === 'gone') throw davError(DavError.NOT_FOUND);
      if (done === 'not-empty') throw davError(DavError.CALENDAR_NOT_EMPTY);
      return { status: 204 };
    }
    if (t.kind !== 'object') throw notAllowed(t);
    const coll = c as DavCollection;
    await this.calendarRow(coll);
    const m = await this.dav.byName(coll, t.name);
    if (!m) throw davError(DavError.NOT_FOUND);
    if (!m.personal) throw davError(DavError.PRODUCT_EVENT_READ_ONLY, { product: m.productId });
    const ifMatch = entityTags(header(call.headers, 'if-match'));
    if (ifMatch !== undefined && ifMatch !== '*' && !ifMatch.includes(etagOf(m))) {
      throw davError(DavError.PRECONDITION_FAILED);
    }
    if (!(await this.writes.remove(coll, m, call.requestId))) throw davError(DavError.PRECONDITION_FAILED);
    return { status: 204 };
  }

  async mkcalendar(call: DavCall): Promise<DavAnswer> {
    const c = this.own(call);
    const t = call.target;
    if (t.kind !== 'calendar')
      throw davError(DavError.CALENDAR_NAME_INVALID, { name: hrefOf(t).slice(0, 40) });
    const coll = c as DavCollection;
    if (!SLUG.test(coll.calendar))
      throw davError(DavError.CALENDAR_NAME_INVALID, { name: coll.calendar.slice(0, 40) });
    if (coll.calendar === DEFAULT_CALENDAR) throw davError(DavError.CALENDAR_EXISTS);
    if (call.body && !is(call.body, CALDAV, 'mkcalendar') && !is(call.body, DAV, 'mkcol')) {
      throw davError(DavError.BODY_INVALID, { reason: 'mkcalendar' });
    }
    const props = this.settable(call.body);
    const made = await this.dav.calendars(coll.accountId, coll.person);
    // The default calendar's settings row (PROPPATCH) is not one the person made.
    if (made.filter((m) => m.slug !== DEFAULT_CALENDAR).length >= MAX_CALENDARS_PER_PERSON)
      throw davError(DavError.TOO_MANY_CALENDARS, { max: MAX_CALENDARS_PER_PERSON });
    const created = await this.dav.createCalendar(coll.accountId, {
      personId: coll.person,
      slug: coll.calendar,
      displayName: props.displayName ?? coll.calendar,
      color: props.color ?? null,
      description: props.description ?? null,
    });
    if (!created) throw davError(DavError.CALENDAR_EXISTS);
    return { status: 201, headers: { Location: hrefOf(t), 'Cache-Control': 'no-store' } };
  }

  /** displayname, calendar-description and calendar-color of a MKCALENDAR or PROPPATCH `set`. */
  private settable(root: XmlElement | null): { displayName?: string; description?: string; color?: string } {
    const out: { displayName?: string; description?: string; color?: string } = {};
    for (const set of childrenNamed(root ?? undefined, DAV, 'set')) {
      for (const p of child(set, DAV, 'prop')?.children ?? []) {
        if (is(p, DAV, 'displayname')) out.displayName = Array.from(p.text).slice(0, 200).join('');
        if (is(p, CALDAV, 'calendar-description'))
          out.description = Array.from(p.text).slice(0, 1000).join('');
        if (is(p, APPLE, 'calendar-color')) out.color = p.text.trim().slice(0, 16);
      }
    }
    return out;
  }

  /**
   * PROPPATCH (RFC 4918 9.2) of a calendar's displayname, calendar-description and calendar-color
   * (set or remove), applied together or not at all: any other property is 403 and the rest 424.
   * Other resources have no settable property.
   */
  async proppatch(call: DavCall): Promise<DavAnswer> {
    const c = this.own(call);
    const root = call.body;
    if (!root || !is(root, DAV, 'propertyupdate'))
      throw davError(DavError.BODY_INVALID, { reason: 'propertyupdate' });
    if (call.target.kind === 'calendar') await this.calendarRow(c as DavCollection);
    const patch: CalendarPatch = {};
    const results: { prop: PropName; status: number }[] = [];
    for (const op of root.children) {
      const remove = is(op, DAV, 'remove');
      if (!remove && !is(op, DAV, 'set')) continue;
      for (const p of child(op, DAV, 'prop')?.children ?? []) {
        const prop = { ns: p.ns, name: p.name };
        const value = remove ? null : p.text;
        const settable = call.target.kind === 'calendar';
        if (settable && is(p, DAV, 'displayname'))
          patch.displayName = value && Array.from(value).slice(0, 200).join('');
        else if (settable && is(p, CALDAV, 'calendar-description'))
          patch.description = value && Array.from(value).slice(0, 1000).join('');
        else if (settable && is(p, APPLE, 'calendar-color')) patch.color = value && value.trim().slice(0, 16);
        else {
          results.push({ prop, status: 403 });
          continue;
        }
        results.push({ prop, status: 200 });
      }
    }
    if (results.some((r) => r.status === 403)) {
      for (const r of results) if (r.status === 200) r.status = 424;
    } else if (Object.keys(patch).length) {
      const coll = c as DavCollection;
      await this.dav.patchCalendar(coll.accountId, coll.person, coll.calendar, patch);
    }
    return {
      status: 207,
      headers: XML,
      body: multistatus([propStatusResponse(hrefOf(call.target), results)]),
    };
  }
}
