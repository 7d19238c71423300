import { SaxesParser } from 'saxes';

/**
 * WebDAV request bodies as a small element tree, read by a strict, namespace-aware parser (saxes) that
 * never processes a DTD: a DOCTYPE is refused outright (no entity expansion, so no billion laughs, no
 * external entities), and so are bodies deeper or larger than any real client sends.
 */

export const DAV = 'DAV:';
export const CALDAV = 'urn:ietf:params:xml:ns:caldav';
export const CS = 'http://calendarserver.org/ns/';
export const APPLE = 'http://apple.com/ns/ical/';

export const XML_LIMITS = { depth: 32, elements: 20_000, textChars: 1_000_000 } as const;

export interface XmlElement {
  ns: string;
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** A body that is not well-formed XML, or one outside the limits: the caller answers 400. */
export class XmlBodyError extends Error {}

export function parseXml(body: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let elements = 0;
  let textChars = 0;
  // The first problem stops the parser at once (thrown out of its write): a body is never read past
  // its first fault, so a 100,000-deep nesting costs what 33 levels do.
  const stop = (e: Error): never => {
    throw e instanceof XmlBodyError ? e : new XmlBodyError(e.message);
  };
  parser.on('error', stop);
  parser.on('doctype', () => stop(new XmlBodyError('DOCTYPE is not accepted')));
  parser.on('opentag', (tag) => {
    if (++elements > XML_LIMITS.elements) stop(new XmlBodyError('too many elements'));
    if (stack.length >= XML_LIMITS.depth) stop(new XmlBodyError('nested too deeply'));
    const attrs: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const a of Object.values(tag.attributes)) attrs[a.local] = a.value;
    const el: XmlElement = { ns: tag.uri ?? '', name: tag.local ?? tag.name, attrs, children: [], text: '' };
    if (stack.length) stack[stack.length - 1].children.push(el);
    else root = el;
    stack.push(el);
  });
  const onText = (t: string) => {
    if (!stack.length) return;
    textChars += t.length;
    if (textChars > XML_LIMITS.textChars) stop(new XmlBodyError('text too long'));
    stack[stack.length - 1].text += t;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    stack.pop();
  });
  try {
    parser.write(body).close();
  } catch (e) {
    stop(e as Error);
  }
  if (!root) throw new XmlBodyError('no root element');
  return root;
}

export const is = (el: XmlElement | undefined, ns: string, name: string): el is XmlElement =>
  !!el && el.ns === ns && el.name === name;

export const child = (el: XmlElement | undefined, ns: string, name: string): XmlElement | undefined =>
  el?.children.find((c) => is(c, ns, name));

export const childrenNamed = (el: XmlElement | undefined, ns: string, name: string): XmlElement[] =>
  el?.children.filter((c) => is(c, ns, name)) ?? [];

/** Text for an XML text node or attribute value. */
export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&apos;',
  );
}

/** Prefixes of the namespaces our answers use (declared once on the root). */
const PREFIX: Record<string, string> = { [DAV]: 'd', [CALDAV]: 'cal', [CS]: 'cs', [APPLE]: 'ical' };

export const NAMESPACE_DECLARATIONS = Object.entries(PREFIX)
  .map(([ns, p]) => `xmlns:${p}="${ns}"`)
  .join(' ');

/** The qualified name of a property in an answer; an unknown namespace gets its own declaration. */
export function qname(ns: string, name: string): { open: string; close: string; empty: string } {
  const prefix = PREFIX[ns];
  if (prefix !== undefined) {
    const n = `${prefix}:${name}`;
    return { open: `<${n}>`, close: `</${n}>`, empty: `<${n}/>` };
  }
  const decl = ns ? ` xmlns="${escapeXml(ns)}"` : ' xmlns=""';
  return { open: `<${name}${decl}>`, close: `</${name}>`, empty: `<${name}${decl}/>` };
}
