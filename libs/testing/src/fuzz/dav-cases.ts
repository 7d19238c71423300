import { SaxesParser } from 'saxes';
import type { RawResponse } from '../http';
import type { FuzzCase } from './fuzz-harness';
import type { RouteManifestEntry } from './route-manifest';

/**
 * The fuzz harness's requests for a CalDAV server (RFC 4918/4791/6578), whose routes the JSON catalogue
 * cannot describe: WebDAV methods with XML bodies (PROPFIND, REPORT, MKCALENDAR, PROPPATCH) and
 * iCalendar bodies (PUT). Hostile XML (entity expansion, DOCTYPEs, deep nesting, huge text nodes,
 * invalid UTF-8, NUL bytes, `__proto__` names, unknown namespaces) and hostile iCalendar (huge lines,
 * impossible dates, years 0 and 99999, absurd recurrence rules, a 10 KB TZID, 5000 VEVENTs of one UID,
 * unclosed components), each sent with the person's credentials and without. Every refusal must be a
 * WebDAV answer (RFC 4918 16): an XML `DAV:error` with the coded reason and the request id (or one of
 * the platform's refusals before routing, preRouteEnvelope).
 */
export interface DavFuzzSetup {
  app: string;
  /** The server's origin; the DAV paths below are absolute. */
  origin: string;
  /** The Authorization header (Basic with an app password) of the person whose paths these are. */
  authorization: string;
  paths: {
    principal: string;
    home: string;
    /** A writable calendar of the person (PUTs go there, under fresh names). */
    calendar: string;
    /** An object in that calendar the person may read and not write (a product event). */
    readOnlyObject: string;
  };
}

const DAV_NS = 'DAV:';
const PLATFORM_NS = 'https://calendar.platform/ns/';

type Body = [label: string, body: Buffer | string, contentType?: string];

const xml = (s: string) => `<?xml version="1.0" encoding="utf-8"?>\n${s}`;
const repeat = (s: string, n: number) => s.repeat(n);
/** An instant as an iCalendar UTC date-time (`20261201T100000Z`). */
const icalUtc = (ms: number) => new Date(ms).toISOString().replace(/[-:]|\.\d+/g, '');

/** Billion laughs: ten levels of ten, a gigabyte once expanded. */
const LAUGHS = [
  '<!ENTITY lol "lol">',
  ...Array.from({ length: 9 }, (_, i) => {
    const prev = i === 0 ? 'lol' : `lol${i}`;
    return `<!ENTITY lol${i + 1} "${repeat(`&${prev};`, 10)}">`;
  }),
].join('');

/** Bodies any XML method must refuse or ignore (the root element named for `method`). */
function hostileXml(root: string, rootNs: string): Body[] {
  const open = `<x:${root} xmlns:x="${rootNs}" xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">`;
  const close = `</x:${root}>`;
  return [
    [
      'billion laughs',
      xml(`<!DOCTYPE x [${LAUGHS}]>${open}<d:prop><d:displayname>&lol9;</d:displayname></d:prop>${close}`),
    ],
    [
      'external entity',
      xml(
        `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${open}<d:prop><d:displayname>&e;</d:displayname></d:prop>${close}`,
      ),
    ],
    [
      'parameter entity',
      xml(`<!DOCTYPE x [<!ENTITY % p SYSTEM "http://127.0.0.1:1/x.dtd"> %p;]>${open}${close}`),
    ],
    ['undeclared entity', `${open}<d:prop><d:displayname>&nope;</d:displayname></d:prop>${close}`],
    ['10k-deep nesting', `${open}${repeat('<d:prop>', 10_000)}${repeat('</d:prop>', 10_000)}${close}`],
    ['10k-deep unclosed', `${open}${repeat('<d:prop>', 10_000)}`],
    ['30k sibling elements', `${open}<d:prop>${repeat('<d:displayname/>', 30_000)}</d:prop>${close}`],
    [
      '2 MB text node',
      `${open}<d:prop><d:displayname>${repeat('x', 2 * 1024 * 1024)}</d:displayname></d:prop>${close}`,
    ],
    [
      '900 KB text node',
      `${open}<d:prop><d:displayname>${repeat('x', 900 * 1024)}</d:displayname></d:prop>${close}`,
    ],
    [
      '900 KB CDATA',
      `${open}<d:prop><d:displayname><![CDATA[${repeat('y', 900 * 1024)}]]></d:displayname></d:prop>${close}`,
    ],
    ['900 KB attribute', `${open}<d:prop><d:displayname a="${repeat('z', 900 * 1024)}"/></d:prop>${close}`],
    [
      'invalid UTF-8',
      Buffer.concat([
        Buffer.from(`${open}<d:prop><d:displayname>`),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from(`</d:displayname></d:prop>${close}`),
      ]),
    ],
    [
      'overlong UTF-8 NUL',
      Buffer.concat([
        Buffer.from(`${open}<d:prop><d:displayname>`),
        Buffer.from([0xc0, 0x80]),
        Buffer.from(`</d:displayname></d:prop>${close}`),
      ]),
    ],
    ['UTF-16 bytes', Buffer.from(`${open}${close}`, 'utf16le')],
    ['NUL in text', `${open}<d:prop><d:displayname>a\u0000b</d:displayname></d:prop>${close}`],
    ['NUL in a name', `${open}<d:prop><d:display\u0000name/></d:prop>${close}`],
    ['NUL character reference', `${open}<d:prop><d:displayname>&#0;</d:displayname></d:prop>${close}`],
    [
      '__proto__ elements',
      `${open}<d:prop><d:__proto__/><d:constructor/><d:hasOwnProperty/><__proto__ xmlns="DAV:"><polluted/></__proto__></d:prop>${close}`,
    ],
    ['__proto__ root', `<__proto__ xmlns="DAV:"><prop><constructor/></prop></__proto__>`],
    [
      '__proto__ attributes',
      `${open}<d:prop __proto__="1" constructor="2" toString="3"><d:displayname __proto__="x"/></d:prop>${close}`,
    ],
    [
      '__proto__ prefix',
      `<__proto__:${root} xmlns:__proto__="${rootNs}"><__proto__:prop/></__proto__:${root}>`,
    ],
    [
      'unknown namespaces',
      `${open}<d:prop><z:a xmlns:z="urn:evil"/><q:b xmlns:q="javascript:alert(1)"/><e:c xmlns:e=""/><l:d xmlns:l="urn:${repeat('n', 10_000)}"/></d:prop>${close}`,
    ],
    ['unbound prefix', `${open}<d:prop><nope:displayname/></d:prop>${close}`],
    ['root in an unknown namespace', `<z:${root} xmlns:z="urn:evil"><z:prop/></z:${root}>`],
    ['root without namespace', `<${root}><prop/></${root}>`],
    ['truncated', `${open}<d:prop><d:display`],
    ['two roots', `${open}${close}${open}${close}`],
    ['not XML (JSON)', '{"propfind":{"prop":["displayname"]}}'],
    ['not XML (text)', 'hello'],
    ['whitespace', '  \r\n\t '],
    ['BOM then XML', `\ufeff${open}${close}`],
    [
      'XML 1.1 with C0 character',
      `<?xml version="1.1"?>${open}<d:prop><d:displayname>&#1;</d:displayname></d:prop>${close}`,
    ],
    ['processing instruction', `<?evil x?>${open}<?php system('id'); ?>${close}`],
    ['latin1 charset', `${open}${close}`, 'application/xml; charset=latin1'],
    ['text/plain', `${open}${close}`, 'text/plain'],
    ['multipart', `--b\r\n\r\n${open}${close}\r\n--b--`, 'multipart/form-data; boundary=b'],
  ];
}

const PROPFIND_ROOT: [string, string] = ['propfind', DAV_NS];

/** REPORT bodies that are valid XML and hostile in what they ask. */
function hostileReports(s: DavFuzzSetup): Body[] {
  const cq = (filter: string, prop = '<d:getetag/>') =>
    `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop>${prop}</d:prop><c:filter>${filter}</c:filter></c:calendar-query>`;
  const range = (start: string, end: string) =>
    `<c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:time-range start="${start}" end="${end}"/></c:comp-filter></c:comp-filter>`;
  const expand = (start: string, end: string) =>
    `<d:getetag/><c:calendar-data><c:expand start="${start}" end="${end}"/></c:calendar-data>`;
  const multiget = (hrefs: string[]) =>
    `<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>${hrefs.map((h) => `<d:href>${h}</d:href>`).join('')}</c:calendar-multiget>`;
  const sync = (token: string, level = '1') =>
    `<d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token><d:sync-level>${level}</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`;
  const fb = (inner: string) =>
    `<c:free-busy-query xmlns:c="urn:ietf:params:xml:ns:caldav">${inner}</c:free-busy-query>`;
  const other = s.paths.calendar.replace(/\/[^/]+\/[^/]+\/$/, '/someone-else/default/');
  return [
    ['time-range month 13 hour 25', cq(range('20261332T250000Z', '20261401T000000Z'))],
    ['time-range Feb 30', cq(range('20260230T000000Z', '20260301T000000Z'))],
    ['time-range year 0', cq(range('00000101T000000Z', '00000102T000000Z'))],
    ['time-range year 99999', cq(range('999990101T000000Z', '999991231T000000Z'))],
    ['time-range end before start', cq(range('20270101T000000Z', '20260101T000000Z'))],
    ['time-range not UTC', cq(range('20260101T000000', '20260102T000000'))],
    ['time-range junk', cq(range('yesterday', '__proto__'))],
    ['time-range empty attributes', cq(range('', ''))],
    [
      'time-range whole calendar, calendar-data',
      cq(range('00010101T000000Z', '99991231T235959Z'), '<d:getetag/><c:calendar-data/>'),
    ],
    [
      'expand whole calendar',
      cq(range('00010101T000000Z', '99991231T235959Z'), expand('00010101T000000Z', '99991231T235959Z')),
    ],
    [
      'expand month 13',
      cq(range('20260101T000000Z', '20260201T000000Z'), expand('20261332T250000Z', '20270101T000000Z')),
    ],
    [
      'expand without range',
      cq(range('20260101T000000Z', '20260201T000000Z'), '<c:calendar-data><c:expand/></c:calendar-data>'),
    ],
    [
      'no filter',
      `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop></c:calendar-query>`,
    ],
    [
      '1000 comp-filters',
      cq(`<c:comp-filter name="VCALENDAR">${repeat('<c:comp-filter name="VEVENT"/>', 1000)}</c:comp-filter>`),
    ],
    [
      'comp-filter __proto__',
      cq('<c:comp-filter name="__proto__"><c:comp-filter name="constructor"/></c:comp-filter>'),
    ],
    [
      '1000 prop-filters',
      cq(
        `<c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT">${repeat('<c:prop-filter name="SUMMARY"><c:text-match>a</c:text-match></c:prop-filter>', 1000)}</c:comp-filter></c:comp-filter>`,
      ),
    ],
    [
      'text-match 500 KB',
      cq(
        `<c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:prop-filter name="SUMMARY"><c:text-match collation="i;__proto__" negate-condition="maybe">${repeat('a', 500_000)}</c:text-match></c:prop-filter></c:comp-filter></c:comp-filter>`,
      ),
    ],
    [
      'param-filter',
      cq(
        '<c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:prop-filter name="ATTENDEE"><c:param-filter name="PARTSTAT"><c:text-match>x</c:text-match></c:param-filter></c:prop-filter></c:comp-filter></c:comp-filter>',
      ),
    ],
    ['multiget 1001 hrefs', multiget(Array.from({ length: 1001 }, (_, i) => `${s.paths.calendar}${i}.ics`))],
    [
      'multiget hostile hrefs',
      multiget([
        '../../../etc/passwd',
        `${s.paths.calendar}%00.ics`,
        `${s.paths.calendar}%ff.ics`,
        `${s.paths.calendar}a%2Fb.ics`,
        'http://[::1',
        'http://evil.example/dav/x.ics',
        `${other}x.ics`,
        '',
        repeat('/a', 5000),
        '__proto__',
        `${s.paths.calendar}${repeat('n', 300)}.ics`,
      ]),
    ],
    ['sync token huge', sync(`http://calendar.platform/ns/sync/${repeat('9', 400)}`)],
    ['sync token negative', sync('http://calendar.platform/ns/sync/-1')],
    ['sync token 1e400', sync('http://calendar.platform/ns/sync/1e400')],
    ['sync token foreign', sync('data:text/plain,__proto__')],
    ['sync level infinite', sync('', 'infinite')],
    ['sync level junk', sync('', '__proto__')],
    [
      'sync with limit',
      `<d:sync-collection xmlns:d="DAV:"><d:sync-token/><d:sync-level>1</d:sync-level><d:limit><d:nresults>-1</d:nresults></d:limit><d:prop><d:getetag/></d:prop></d:sync-collection>`,
    ],
    ['free-busy without range', fb('')],
    ['free-busy whole calendar', fb('<c:time-range start="00010101T000000Z" end="99991231T235959Z"/>')],
    ['free-busy month 13', fb('<c:time-range start="20261332T250000Z" end="20270101T000000Z"/>')],
    [
      'expand-property',
      `<d:expand-property xmlns:d="DAV:"><d:property name="__proto__"/></d:expand-property>`,
    ],
    ['unknown report', `<z:steal xmlns:z="urn:evil"/>`],
    [
      'acl-principal-prop-set',
      `<d:acl-principal-prop-set xmlns:d="DAV:"><d:prop><d:displayname/></d:prop></d:acl-principal-prop-set>`,
    ],
  ];
}

/** A VCALENDAR around `inner` lines, CRLF-terminated. */
const vcal = (inner: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//fuzz//EN', ...inner, 'END:VCALENDAR', ''].join('\r\n');
const vevent = (uid: string, extra: string[], start = 'DTSTART:20261201T100000Z') => [
  'BEGIN:VEVENT',
  `UID:${uid}`,
  'DTSTAMP:20261001T000000Z',
  start,
  ...extra,
  'END:VEVENT',
];

/** iCalendar bodies a PUT must refuse (4xx with CALDAV:valid-calendar-data or similar) or store as sent. */
function hostileIcal(): Body[] {
  let k = 0;
  // A UID per body, so one that is stored does not turn the next into a UID conflict.
  const ev = (extra: string[], start?: string) => vcal(vevent(`fuzz-${++k}`, extra, start));
  const longTzid = repeat('T', 10 * 1024);
  return [
    ['900 KB line', ev([`SUMMARY:${repeat('s', 900 * 1024)}`])],
    ['2 MB line', ev([`DESCRIPTION:${repeat('d', 2 * 1024 * 1024)}`])],
    ['100k folded continuation lines', ev([`SUMMARY:a${repeat('\r\n b', 100_000)}`])],
    ['date month 13 hour 25', ev([], 'DTSTART:20261332T250000')],
    ['date Feb 30', ev([], 'DTSTART:20260230T100000Z')],
    ['all-day month 99', ev([], 'DTSTART;VALUE=DATE:20269901')],
    ['date junk', ev([], 'DTSTART:tomorrow')],
    ['year 0', ev(['DTEND:00000101T010000Z'], 'DTSTART:00000101T000000Z')],
    ['year 99999', ev(['DTEND:999991231T010000Z'], 'DTSTART:999991231T000000Z')],
    ['year 9999 end of time', ev(['DTEND:99991231T235959Z'], 'DTSTART:99991231T235958Z')],
    ['DTEND before DTSTART', ev(['DTEND:20261101T100000Z'])],
    ['DURATION absurd', ev(['DURATION:P99999999W'])],
    ['DURATION negative', ev(['DURATION:-PT1H'])],
    ['RRULE COUNT 2^31', ev(['RRULE:FREQ=SECONDLY;COUNT=2147483647'])],
    ['RRULE COUNT 1e30', ev(['RRULE:FREQ=DAILY;COUNT=1000000000000000000000000000000'])],
    ['RRULE COUNT 0', ev(['RRULE:FREQ=DAILY;COUNT=0'])],
    ['RRULE INTERVAL 0', ev(['RRULE:FREQ=DAILY;INTERVAL=0'])],
    ['RRULE INTERVAL negative', ev(['RRULE:FREQ=WEEKLY;INTERVAL=-3'])],
    ['RRULE INTERVAL 1e20', ev(['RRULE:FREQ=YEARLY;INTERVAL=99999999999999999999'])],
    ['RRULE SECONDLY forever', ev(['RRULE:FREQ=SECONDLY'])],
    ['RRULE never matches', ev(['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30'])],
    [
      'RRULE BYSETPOS and BYYEARDAY extremes',
      ev(['RRULE:FREQ=YEARLY;BYYEARDAY=366,-366;BYWEEKNO=53;BYSETPOS=-366,366;BYDAY=1000MO']),
    ],
    ['RRULE UNTIL year 99999', ev(['RRULE:FREQ=DAILY;UNTIL=999991231T000000Z'])],
    ['RRULE without FREQ', ev(['RRULE:COUNT=3'])],
    ['RRULE __proto__ part', ev(['RRULE:FREQ=DAILY;__proto__=1;COUNT=2'])],
    [
      '10k EXDATEs',
      ev([
        'RRULE:FREQ=DAILY;COUNT=20000',
        ...Array.from({ length: 10_000 }, (_, i) => `EXDATE:${icalUtc(Date.UTC(2026, 11, 1 + i, 10))}`),
      ]),
    ],
    ['TZID of 10 KB without VTIMEZONE', ev([], `DTSTART;TZID=${longTzid}:20261201T100000`)],
    [
      'TZID of 10 KB with its VTIMEZONE',
      vcal([
        'BEGIN:VTIMEZONE',
        `TZID:${longTzid}`,
        'BEGIN:STANDARD',
        'DTSTART:19700101T000000',
        'TZOFFSETFROM:+0000',
        'TZOFFSETTO:+0000',
        'END:STANDARD',
        'END:VTIMEZONE',
        ...vevent('fuzz-tzid', ['RRULE:FREQ=DAILY;COUNT=3'], `DTSTART;TZID=${longTzid}:20261201T100000`),
      ]),
    ],
    [
      'VTIMEZONE offset +9999',
      vcal([
        'BEGIN:VTIMEZONE',
        'TZID:X',
        'BEGIN:STANDARD',
        'DTSTART:19700101T000000',
        'TZOFFSETFROM:+9999',
        'TZOFFSETTO:-9999',
        'END:STANDARD',
        'END:VTIMEZONE',
        ...vevent('fuzz-offset', [], 'DTSTART;TZID=X:20261201T100000'),
      ]),
    ],
    ['5000 VEVENTs one UID', vcal(Array.from({ length: 5000 }, () => vevent('same', [])).flat())],
    [
      '5000 overrides one UID',
      vcal([
        ...vevent('same', ['RRULE:FREQ=DAILY']),
        ...Array.from({ length: 5000 }, (_, i) =>
          vevent('same', [`RECURRENCE-ID:${icalUtc(Date.UTC(2026, 11, 1 + i, 10))}`]),
        ).flat(),
      ]),
    ],
    [
      'nested BEGIN without END',
      ['BEGIN:VCALENDAR', 'VERSION:2.0', ...repeat('BEGIN:VEVENT\r\n', 10_000).split('\r\n')].join('\r\n'),
    ],
    [
      '10k-deep nesting closed',
      vcal([
        ...Array.from({ length: 10_000 }, () => 'BEGIN:VALARM'),
        ...Array.from({ length: 10_000 }, () => 'END:VALARM'),
      ]),
    ],
    ['END without BEGIN', vcal(['END:VEVENT', 'END:VALARM'])],
    ['mismatched END', vcal(['BEGIN:VEVENT', 'UID:x', 'DTSTART:20261201T100000Z', 'END:VTODO'])],
    ['no VCALENDAR', vevent('fuzz-bare', []).join('\r\n')],
    ['two VCALENDARs', `${ev([])}${ev([])}`],
    ['empty', ''],
    ['NUL in SUMMARY', ev(['SUMMARY:a\u0000b'])],
    [
      'invalid UTF-8',
      Buffer.concat([
        Buffer.from(ev([]).slice(0, 60)),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from(ev([]).slice(60)),
      ]),
    ],
    [
      'property and parameter named __proto__',
      ev(['X-__PROTO__:1', 'SUMMARY;__proto__=1;CONSTRUCTOR=2:x', 'CONSTRUCTOR:y']),
    ],
    [
      '10k ATTENDEEs',
      ev(Array.from({ length: 10_000 }, (_, i) => `ATTENDEE;PARTSTAT=__proto__:mailto:a${i}@example.com`)),
    ],
    ['VALARM TRIGGER absurd', ev(['BEGIN:VALARM', 'ACTION:DISPLAY', 'TRIGGER:-P99999999W', 'END:VALARM'])],
    ['VTODO', vcal(['BEGIN:VTODO', 'UID:t', 'DTSTAMP:20261001T000000Z', 'END:VTODO'])],
    ['UID of 10 KB', vcal(vevent(repeat('u', 10_000), []))],
    ['binary', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256))],
    ['JSON content type', ev([]), 'application/json'],
  ];
}

const HOSTILE_HEADERS: [string, Record<string, string>][] = [
  ['Depth 2', { Depth: '2' }],
  ['Depth junk', { Depth: '__proto__' }],
  ['If-Match junk', { 'If-Match': 'W/"x", "unterminated' }],
  ['If-None-Match huge', { 'If-None-Match': repeat('"1",', 2000) }],
  ['gzip encoding', { 'Content-Encoding': 'gzip' }],
  ['Content-Length lie', { 'Content-Length': '99999999999' }],
];

function caseOf(
  s: DavFuzzSetup,
  route: RouteManifestEntry,
  label: string,
  method: string,
  path: string,
  body: Buffer | string | undefined,
  headers: Record<string, string>,
  contentType: string | undefined,
  authenticated: boolean,
): FuzzCase {
  const buf = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  return {
    app: s.app,
    route: `${route.method} ${route.path}`,
    label: `${method} ${label}${authenticated ? '' : ' (anonymous)'}`,
    method,
    url: `${s.origin}${path}`,
    headers: {
      ...(buf ? { 'content-type': contentType ?? 'application/xml; charset=utf-8' } : {}),
      ...(authenticated ? { Authorization: s.authorization } : {}),
      ...headers,
    },
    body: buf,
    raw: true,
    errorProblems: davRefusalProblems,
  };
}

/**
 * FuzzTarget.routeCases for a CalDAV server: the catalogue above for its routes (`/dav`, `/dav/*path`
 * with any method; OPTIONS; `/.well-known/caldav`), undefined for every other route.
 */
export function davRouteCases(s: DavFuzzSetup): (route: RouteManifestEntry) => FuzzCase[] | undefined {
  return (route) => {
    const out: FuzzCase[] = [];
    const both = (
      label: string,
      method: string,
      path: string,
      body?: Buffer | string,
      headers: Record<string, string> = {},
      contentType?: string,
    ) => {
      out.push(caseOf(s, route, label, method, path, body, headers, contentType, true));
      out.push(caseOf(s, route, label, method, path, body, headers, contentType, false));
    };
    let n = 0;
    const fresh = () => `${s.paths.calendar}fuzz-${++n}.ics`;
    const freshCalendar = () => `${s.paths.home}fuzz-cal-${++n}/`;
    if (route.path === '/dav/*path' && route.method !== 'OPTIONS') {
      for (const [method, root, path] of [
        ['PROPFIND', PROPFIND_ROOT, s.paths.calendar],
        ['REPORT', ['calendar-query', 'urn:ietf:params:xml:ns:caldav'], s.paths.calendar],
        ['MKCALENDAR', ['mkcalendar', 'urn:ietf:params:xml:ns:caldav'], ''],
        ['PROPPATCH', ['propertyupdate', DAV_NS], s.paths.calendar],
      ] as [string, [string, string], string][]) {
        for (const [label, body, ct] of hostileXml(...root)) {
          both(label, method, path || freshCalendar(), body, {}, ct);
        }
      }
      for (const path of [s.paths.principal, s.paths.home, s.paths.readOnlyObject]) {
        both(`hostile body on ${path}`, 'PROPFIND', path, hostileXml(...PROPFIND_ROOT)[4][1], { Depth: '1' });
        both(`calendar-query on ${path}`, 'REPORT', path, hostileReports(s)[8][1], { Depth: '1' });
      }
      for (const [label, path] of [
        ['MKCALENDAR on an object path', `${s.paths.calendar}x.ics`],
        ['MKCALENDAR name with dots', `${s.paths.home}..%2F..%2F/`],
        ['MKCALENDAR name with NUL', `${s.paths.home}a%00b/`],
        ['MKCALENDAR name of 300 characters', `${s.paths.home}${repeat('c', 300)}/`],
        ['MKCALENDAR on default', s.paths.calendar],
        ['MKCALENDAR on the home', s.paths.home],
      ]) {
        both(
          label,
          'MKCALENDAR',
          path,
          '<c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"/>',
        );
      }
      both(
        'MKCALENDAR 1 MB displayname',
        'MKCALENDAR',
        freshCalendar(),
        `<c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:displayname>${repeat('n', 1_000_000)}</d:displayname></d:prop></d:set></c:mkcalendar>`,
      );
      both(
        'PROPPATCH 10k properties',
        'PROPPATCH',
        s.paths.calendar,
        `<d:propertyupdate xmlns:d="DAV:"><d:set><d:prop>${repeat('<d:displayname>x</d:displayname>', 10_000)}</d:prop></d:set><d:remove><d:prop><d:__proto__/></d:prop></d:remove></d:propertyupdate>`,
      );
      for (const [label, body, ct] of hostileIcal()) {
        both(label, 'PUT', fresh(), body, {}, ct ?? 'text/calendar; charset=utf-8');
      }
      for (const [label, body] of hostileIcal().slice(0, 8)) {
        both(`${label} over a read-only object`, 'PUT', s.paths.readOnlyObject, body, {}, 'text/calendar');
      }
      for (const [label, headers] of HOSTILE_HEADERS) {
        both(
          label,
          'PROPFIND',
          s.paths.calendar,
          '<d:propfind xmlns:d="DAV:"><d:allprop/></d:propfind>',
          headers,
        );
        both(label, 'PUT', fresh(), vcal(vevent(`hdr-${n}`, [])), headers, 'text/calendar');
      }
      for (const method of ['GET', 'DELETE', 'LOCK', 'COPY', 'MOVE', 'POST', 'TRACE', 'ACL', 'SEARCH']) {
        both(`${method} path %00`, method, `${s.paths.calendar}%00.ics`);
        both(`${method} path %ff`, method, `${s.paths.calendar}%ff/x.ics`);
      }
      // Last, so the whole-calendar queries and expansions meet every series the PUTs above stored.
      for (const [label, body] of hostileReports(s))
        both(label, 'REPORT', s.paths.calendar, body, { Depth: '1' });
      return out;
    }
    if (route.path === '/dav' && route.method !== 'OPTIONS') {
      for (const [label, body, ct] of hostileXml(...PROPFIND_ROOT))
        both(label, 'PROPFIND', '/dav', body, { Depth: '0' }, ct);
      for (const [label, body] of hostileReports(s).slice(0, 4)) both(label, 'REPORT', '/dav', body);
      return out;
    }
    if (route.method === 'OPTIONS' && route.path.startsWith('/dav')) {
      const path = route.path === '/dav' ? '/dav' : s.paths.calendar;
      for (const [label, body, ct] of hostileXml(...PROPFIND_ROOT).slice(0, 8))
        both(label, 'OPTIONS', path, body, {}, ct);
      return out;
    }
    if (route.path === '/.well-known/caldav') {
      for (const [label, body, ct] of hostileXml(...PROPFIND_ROOT).slice(0, 8)) {
        both(label, 'PROPFIND', '/.well-known/caldav', body, {}, ct);
      }
      return out;
    }
    return undefined;
  };
}

/** The root element and our coded reason and request id of an XML error body, or why it is not one. */
function readDavError(text: string): { reason?: string; requestId?: string } | string {
  const parser = new SaxesParser({ xmlns: true, position: false });
  const stack: string[] = [];
  let root = '';
  let failure = '';
  const found: { reason?: string; requestId?: string } = {};
  let capture: 'reason' | 'requestId' | undefined;
  parser.on('error', (e) => {
    failure ||= e.message;
  });
  parser.on('opentag', (tag) => {
    const id = `${tag.uri ?? ''}${tag.local ?? tag.name}`;
    if (!stack.length) root = id;
    stack.push(id);
    capture =
      id === `${PLATFORM_NS}reason` ? 'reason' : id === `${PLATFORM_NS}request-id` ? 'requestId' : undefined;
  });
  parser.on('text', (t) => {
    if (capture) found[capture] = (found[capture] ?? '') + t;
  });
  parser.on('closetag', () => {
    stack.pop();
    capture = undefined;
  });
  try {
    parser.write(text).close();
  } catch (e) {
    failure ||= (e as Error).message;
  }
  if (failure) return `not well-formed XML (${failure.slice(0, 80)})`;
  if (root !== `${DAV_NS}error`) return `root element is ${root || 'missing'}, not DAV:error`;
  return found;
}

/** A refusal must be a DAV:error (RFC 4918 16) with the coded reason and the request id. */
export function davErrorProblems(res: RawResponse): string[] {
  const type = String(res.headers['content-type'] ?? '');
  const problems = /^application\/xml\b/.test(type) ? [] : [`content type ${type || 'missing'}, not XML`];
  const e = readDavError(res.text);
  if (typeof e === 'string') return [...problems, `${e}: ${res.status} ${res.text.slice(0, 160)}`];
  if (!e.reason || !/^[A-Z][A-Z0-9_]+$/.test(e.reason))
    problems.push(`DAV:error without a coded reason (${res.status})`);
  if (!e.requestId || e.requestId !== res.headers['x-request-id'])
    problems.push(`DAV:error without the request id (${res.status})`);
  return problems;
}

/**
 * What the platform refuses before any route runs, in the envelope for every route (CalDAV's too): a
 * path that is not UTF-8 or holds NUL (libs/envelope's URL guard), a JSON-typed body that is not JSON
 * (its body parser), and at the gateway a body over its limit, a rate limit or oversized headers.
 * Nothing else may answer a CalDAV request in the envelope.
 */
const PRE_ROUTE_REASONS = new Set([
  'MALFORMED_BODY',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'HEADERS_TOO_LARGE',
]);

function preRouteEnvelope(res: RawResponse): boolean {
  const env = res.json;
  if (!env || Object.keys(env).sort().join() !== 'code,error,success,value') return false;
  const value = env.value as { reason?: unknown; fields?: { field?: unknown }[] } | undefined;
  if (typeof value?.reason === 'string' && PRE_ROUTE_REASONS.has(value.reason)) return true;
  return (
    value?.reason === 'VALIDATION_FAILED' &&
    Array.isArray(value.fields) &&
    value.fields.length > 0 &&
    value.fields.every((f) => f.field === '(path)')
  );
}

/** A CalDAV refusal: a DAV:error, or one of the platform's refusals before routing (preRouteEnvelope). */
function davRefusalProblems(res: RawResponse): string[] {
  return preRouteEnvelope(res) ? [] : davErrorProblems(res);
}
