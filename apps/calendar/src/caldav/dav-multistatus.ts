import { APPLE, CALDAV, CS, DAV, NAMESPACE_DECLARATIONS, escapeXml, qname, type XmlElement } from './dav-xml';

/** A property named in a request: its namespace and local name. */
export interface PropName {
  ns: string;
  name: string;
}

/** What a PROPFIND or REPORT asks of each resource (RFC 4918 9.1). */
export type PropRequest =
  { kind: 'prop'; props: PropName[]; calendarData?: XmlElement } | { kind: 'allprop' } | { kind: 'propname' };

/** Inner XML of a property, or null: the resource has no such property (404 in its propstat). */
export type PropValue = string | null;

/** The properties a resource has, each computed only when asked for. */
export type PropTable = Map<string, () => PropValue>;

export const key = (ns: string, name: string) => `${ns}|${name}`;

export function propTable(entries: [string, string, () => PropValue][]): PropTable {
  return new Map(entries.map(([ns, name, f]) => [key(ns, name), f]));
}

/** Properties left out of allprop (RFC 4791 9.6: calendar-data only when named; RFC 6578: sync-token). */
const NOT_IN_ALLPROP = new Set([key(CALDAV, 'calendar-data'), key(DAV, 'sync-token')]);

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  403: 'Forbidden',
  404: 'Not Found',
  424: 'Failed Dependency',
  507: 'Insufficient Storage',
};

const statusLine = (code: number) => `HTTP/1.1 ${code} ${STATUS_TEXT[code] ?? ''}`.trim();

function element(ns: string, name: string, inner: string): string {
  const q = qname(ns, name);
  return inner === '' ? q.empty : `${q.open}${inner}${q.close}`;
}

function propstat(code: number, props: string[]): string {
  return `<d:propstat><d:prop>${props.join('')}</d:prop><d:status>${statusLine(code)}</d:status></d:propstat>`;
}

/** One `<d:response>` with the requested properties of a resource (found: 200, missing: 404). */
export function propResponse(href: string, table: PropTable, req: PropRequest): string {
  const found: string[] = [];
  const missing: string[] = [];
  if (req.kind === 'propname') {
    for (const k of table.keys()) {
      const [ns, name] = splitKey(k);
      found.push(element(ns, name, ''));
    }
  } else if (req.kind === 'allprop') {
    for (const [k, f] of table) {
      if (NOT_IN_ALLPROP.has(k)) continue;
      const v = f();
      if (v === null) continue;
      const [ns, name] = splitKey(k);
      found.push(element(ns, name, v));
    }
  } else {
    for (const p of req.props) {
      const v = table.get(key(p.ns, p.name))?.() ?? null;
      if (v === null) missing.push(element(p.ns, p.name, ''));
      else found.push(element(p.ns, p.name, v));
    }
  }
  const stats = [
    ...(found.length || !missing.length ? [propstat(200, found)] : []),
    ...(missing.length ? [propstat(404, missing)] : []),
  ];
  return `<d:response><d:href>${escapeXml(href)}</d:href>${stats.join('')}</d:response>`;
}

/** A `<d:response>` that is only a status (a multiget href that is not found, a removed member). */
export function statusResponse(href: string, code: number): string {
  return `<d:response><d:href>${escapeXml(href)}</d:href><d:status>${statusLine(code)}</d:status></d:response>`;
}

/** PROPPATCH's answer: each property with its own status. */
export function propStatusResponse(href: string, results: { prop: PropName; status: number }[]): string {
  const by = new Map<number, string[]>();
  for (const r of results)
    by.set(r.status, [...(by.get(r.status) ?? []), element(r.prop.ns, r.prop.name, '')]);
  const stats = [...by].map(([code, props]) => propstat(code, props));
  return `<d:response><d:href>${escapeXml(href)}</d:href>${stats.join('')}</d:response>`;
}

export function multistatus(responses: string[], extra = ''): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus ${NAMESPACE_DECLARATIONS}>${responses.join('')}${extra}</d:multistatus>`;
}

function splitKey(k: string): [string, string] {
  const i = k.lastIndexOf('|');
  return [k.slice(0, i), k.slice(i + 1)];
}

export const hrefXml = (href: string) => `<d:href>${escapeXml(href)}</d:href>`;

export { APPLE, CALDAV, CS, DAV };
