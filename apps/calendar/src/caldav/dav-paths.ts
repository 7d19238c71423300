import { DavError, davError } from './dav.errors';

/**
 * The CalDAV namespace (docs/caldav.md):
 *   /dav/                                        root (current-user-principal)
 *   /dav/principals/{account}/{person}/           a person's principal (calendar-home-set)
 *   /dav/calendars/{account}/{person}/            their calendar home
 *   /dav/calendars/{account}/{person}/{calendar}/ a calendar (`default`, or one made with MKCALENDAR)
 *   /dav/calendars/{account}/{person}/{calendar}/{name}  an event (product events: `{event id}.ics`)
 */
export const DAV_ROOT = '/dav/';

export type DavTarget =
  | { kind: 'root' }
  | { kind: 'principals' }
  | { kind: 'principal'; account: string; person: string }
  | { kind: 'home'; account: string; person: string }
  | { kind: 'calendar'; account: string; person: string; calendar: string }
  | { kind: 'object'; account: string; person: string; calendar: string; name: string };

const seg = encodeURIComponent;

export const hrefs = {
  principal: (account: string, person: string) => `/dav/principals/${seg(account)}/${seg(person)}/`,
  home: (account: string, person: string) => `/dav/calendars/${seg(account)}/${seg(person)}/`,
  calendar: (account: string, person: string, calendar: string) =>
    `/dav/calendars/${seg(account)}/${seg(person)}/${seg(calendar)}/`,
  object: (account: string, person: string, calendar: string, name: string) =>
    `/dav/calendars/${seg(account)}/${seg(person)}/${seg(calendar)}/${seg(name)}`,
};

export function hrefOf(t: DavTarget): string {
  switch (t.kind) {
    case 'root':
      return DAV_ROOT;
    case 'principals':
      return '/dav/principals/';
    case 'principal':
      return hrefs.principal(t.account, t.person);
    case 'home':
      return hrefs.home(t.account, t.person);
    case 'calendar':
      return hrefs.calendar(t.account, t.person, t.calendar);
    case 'object':
      return hrefs.object(t.account, t.person, t.calendar, t.name);
  }
}

function decode(s: string): string {
  try {
    const d = decodeURIComponent(s);
    if (d.includes('\u0000') || d.includes('/')) throw new Error('bad segment');
    return d;
  } catch {
    throw davError(DavError.NOT_FOUND);
  }
}

/**
 * A request path (or an href from a body: absolute URLs are reduced to their path) as a target; null
 * for a path that names nothing here.
 */
export function parseDavPath(raw: string): DavTarget | null {
  let path = raw;
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      return null;
    }
  }
  path = path.split('?')[0];
  if (!/^\/dav(\/|$)/i.test(path)) return null;
  const parts = path
    .split('/')
    .slice(2)
    .filter((p, i, all) => p !== '' || i < all.length - 1);
  const segs = parts.filter((p) => p !== '').map(decode);
  if (segs.length === 0) return { kind: 'root' };
  const [top, account, person, calendar, name, ...rest] = segs;
  if (rest.length) return null;
  if (top === 'principals') {
    if (!account) return { kind: 'principals' };
    if (!person || calendar) return null;
    return { kind: 'principal', account, person };
  }
  if (top !== 'calendars' || !account || !person) return null;
  if (!calendar) return { kind: 'home', account, person };
  if (!name) return { kind: 'calendar', account, person, calendar };
  return { kind: 'object', account, person, calendar, name };
}

/** The methods a resource takes (the `Allow` of its 405s and of OPTIONS). */
export function allowedMethods(t: DavTarget): string {
  switch (t.kind) {
    case 'object':
      return 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT';
    case 'calendar':
      return t.calendar === 'default'
        ? 'OPTIONS, PROPFIND, PROPPATCH, REPORT'
        : 'OPTIONS, DELETE, PROPFIND, PROPPATCH, REPORT';
    default:
      return 'OPTIONS, PROPFIND, REPORT';
  }
}
