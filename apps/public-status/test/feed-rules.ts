/**
 * The W3C Feed Validation Service's RSS 2.0 rules that can be checked offline, on the text of a feed.
 *
 * No strict XML parser is a dependency of the repository (htmlparser2 is there, transitively, but it
 * is lenient by design: it accepts unclosed and mis-nested tags). So `parseXmlStrict` is a small
 * non-validating XML 1.0 parser that refuses what a conforming parser must refuse: characters outside
 * the Char production, unknown or malformed entity references, a raw `<` or `&` in text or attributes,
 * unquoted or duplicate attributes, mis-nested or unclosed elements, content after the root, an
 * unbound namespace prefix. It builds a tiny tree for the rule checks. (With a dependency allowed, the
 * same test would use `saxes` or `@xmldom/xmldom` with `onError` throwing.)
 */

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

// eslint-disable-next-line no-control-regex
const BAD_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDFFF]/u;
const NAME = /^[A-Za-z_][A-Za-z0-9._:-]*$/;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(raw: string, where: string): string {
  if (raw.includes('<')) throw new Error(`raw '<' in ${where}`);
  return raw.replace(/&([^;]*);?/g, (m, ref: string) => {
    if (!m.endsWith(';')) throw new Error(`unterminated entity reference in ${where}: ${m}`);
    if (ref in PREDEFINED) return PREDEFINED[ref];
    const num = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(ref);
    if (!num) throw new Error(`unknown entity &${ref}; in ${where}`);
    const cp = num[1] ? parseInt(num[1], 16) : parseInt(num[2], 10);
    const ch = String.fromCodePoint(cp);
    if (BAD_CHAR.test(ch) && cp < 0x10000) throw new Error(`character reference to a non-Char in ${where}`);
    return ch;
  });
}

export function parseXmlStrict(xml: string): XmlElement {
  if (BAD_CHAR.test(xml)) throw new Error('a character outside XML 1.0 Char');
  let pos = 0;
  const decl = /^<\?xml version="1\.0"(?: encoding="UTF-8")?\?>/.exec(xml);
  if (decl) pos = decl[0].length;
  const root: XmlElement = { name: '#document', attrs: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  let seenRoot = false;
  while (pos < xml.length) {
    const lt = xml.indexOf('<', pos);
    const text = xml.slice(pos, lt < 0 ? xml.length : lt);
    const top = stack[stack.length - 1];
    if (text.length) {
      if (stack.length === 1 && text.trim()) throw new Error('text outside the root element');
      if (text.includes(']]>')) throw new Error(`literal ']]>' in text of <${top.name}>`);
      top.text += decode(text, `text of <${top.name}>`);
    }
    if (lt < 0) break;
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt + 4);
      if (end < 0) throw new Error('unclosed comment');
      pos = end + 3;
      continue;
    }
    if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt);
      if (end < 0 || stack.length === 1) throw new Error('bad CDATA section');
      top.text += xml.slice(lt + 9, end);
      pos = end + 3;
      continue;
    }
    const gt = xml.indexOf('>', lt);
    if (gt < 0) throw new Error('unclosed tag');
    const tag = xml.slice(lt + 1, gt);
    pos = gt + 1;
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      const open = stack.pop();
      if (!open || open === root || open.name !== name)
        throw new Error(`</${name}> closes <${open?.name ?? 'nothing'}>`);
      continue;
    }
    if (tag.startsWith('?') || tag.startsWith('!')) throw new Error(`unexpected <${tag.slice(0, 10)}`);
    const selfClosing = tag.endsWith('/');
    const body = selfClosing ? tag.slice(0, -1) : tag;
    const nameMatch = /^[^\s]+/.exec(body);
    const name = nameMatch?.[0] ?? '';
    if (!NAME.test(name)) throw new Error(`bad element name <${name}>`);
    const el: XmlElement = { name, attrs: {}, children: [], text: '' };
    let rest = body.slice(name.length);
    const attr = /^\s+([A-Za-z_][A-Za-z0-9._:-]*)\s*=\s*("([^"]*)"|'([^']*)')/;
    for (let m = attr.exec(rest); m; m = attr.exec(rest)) {
      if (m[1] in el.attrs) throw new Error(`duplicate attribute ${m[1]} on <${name}>`);
      el.attrs[m[1]] = decode(m[3] ?? m[4], `attribute ${m[1]}`);
      rest = rest.slice(m[0].length);
    }
    if (rest.trim()) throw new Error(`malformed attributes on <${name}>: ${rest.trim().slice(0, 20)}`);
    if (stack.length === 1) {
      if (seenRoot) throw new Error('a second root element');
      seenRoot = true;
    }
    top.children.push(el);
    if (!selfClosing) stack.push(el);
  }
  if (stack.length !== 1) throw new Error(`<${stack[stack.length - 1].name}> is not closed`);
  if (!seenRoot) throw new Error('no root element');
  checkNamespaces(root.children[0], new Set(['xml']));
  return root.children[0];
}

function checkNamespaces(el: XmlElement, bound: Set<string>) {
  const here = new Set(bound);
  for (const a of Object.keys(el.attrs)) if (a.startsWith('xmlns:')) here.add(a.slice(6));
  const prefixed = [el.name, ...Object.keys(el.attrs).filter((a) => !a.startsWith('xmlns'))];
  for (const n of prefixed) {
    const prefix = n.includes(':') ? n.split(':')[0] : null;
    if (prefix && !here.has(prefix)) throw new Error(`unbound namespace prefix ${prefix}`);
  }
  for (const c of el.children) checkNamespaces(c, here);
}

const child = (el: XmlElement, name: string) => el.children.filter((c) => c.name === name);

/** RFC 822 as the validator accepts it: optional weekday, 1-2 digit day, 4-digit year, seconds, zone. */
const RFC822 =
  /^(?:(Mon|Tue|Wed|Thu|Fri|Sat|Sun), )?(\d{1,2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d\d):(\d\d):(\d\d) (GMT|UT|[+-]\d{4})$/;

function checkDate(value: string, where: string) {
  const m = RFC822.exec(value);
  if (!m) throw new Error(`${where}: not an RFC 822 date: ${value}`);
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new Error(`${where}: impossible date ${value}`);
  if (m[1] && ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()] !== m[1] && m[8] === 'GMT')
    throw new Error(`${where}: weekday does not match ${value}`);
}

function checkAbsoluteUrl(value: string, where: string) {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new Error(`${where}: not a URL: ${value}`);
  }
  if (!['http:', 'https:'].includes(u.protocol)) throw new Error(`${where}: not http(s): ${value}`);
}

/**
 * Throws on the first broken rule: well-formed; `<rss version="2.0">` with one `<channel>`; channel
 * `title`, `link` (absolute), `description`; `atom:link rel="self"` with an absolute href and the
 * RSS media type; valid RFC 822 dates; every item with a title or description; unique guids;
 * `isPermaLink` only true/false; absolute item links. Returns the parsed channel.
 */
export function assertValidRss(xml: string): XmlElement {
  const rss = parseXmlStrict(xml);
  if (rss.name !== 'rss' || rss.attrs.version !== '2.0') throw new Error('root must be <rss version="2.0">');
  if (rss.attrs['xmlns:atom'] !== 'http://www.w3.org/2005/Atom') throw new Error('atom namespace missing');
  const channels = child(rss, 'channel');
  if (channels.length !== 1) throw new Error('exactly one <channel>');
  const ch = channels[0];
  for (const req of ['title', 'link', 'description'])
    if (child(ch, req).length !== 1 || !child(ch, req)[0].text.trim())
      throw new Error(`channel needs one non-empty <${req}>`);
  checkAbsoluteUrl(child(ch, 'link')[0].text, 'channel link');
  const self = child(ch, 'atom:link').filter((l) => l.attrs.rel === 'self');
  if (self.length !== 1) throw new Error('channel needs one atom:link rel="self"');
  checkAbsoluteUrl(self[0].attrs.href, 'atom:link href');
  if (self[0].attrs.type !== 'application/rss+xml') throw new Error('atom:link type');
  for (const d of [...child(ch, 'lastBuildDate'), ...child(ch, 'pubDate')]) checkDate(d.text, d.name);
  for (const t of child(ch, 'ttl')) if (!/^\d+$/.test(t.text)) throw new Error('ttl must be an integer');
  const guids = new Set<string>();
  for (const item of child(ch, 'item')) {
    if (!child(item, 'title').length && !child(item, 'description').length)
      throw new Error('an item needs a title or a description');
    for (const d of child(item, 'pubDate')) checkDate(d.text, 'item pubDate');
    for (const l of child(item, 'link')) checkAbsoluteUrl(l.text, 'item link');
    for (const g of child(item, 'guid')) {
      if (!g.text.trim()) throw new Error('empty guid');
      if (guids.has(g.text)) throw new Error(`duplicate guid ${g.text}`);
      guids.add(g.text);
      const perma = g.attrs.isPermaLink;
      if (perma !== undefined && perma !== 'true' && perma !== 'false') throw new Error('isPermaLink');
      if (perma !== 'false') checkAbsoluteUrl(g.text, 'permalink guid');
    }
  }
  return ch;
}

export const childrenOf = child;
