/**
 * RSS 2.0 of a business's public incidents and maintenance (decision 0024). Pure: the service gives it
 * what the publication views returned, this writes the XML. Every text goes through `xmlText`, the one
 * escaping function, so a hostile incident title cannot break out of its element.
 */

export interface FeedItem {
  /** Stable across requests and renames: built from public codes only. */
  guid: string;
  title: string;
  description: string;
  link: string;
  date: Date;
  category: string;
}

export interface Feed {
  title: string;
  description: string;
  /** Absolute: the business's status page. */
  link: string;
  /** Absolute: this feed (`atom:link rel="self"`). */
  self: string;
  ttlMinutes: number;
  items: FeedItem[];
}

/**
 * Characters XML 1.0 forbids (C0 controls but tab, LF, CR; lone surrogates; U+FFFE/U+FFFF) and the C1
 * controls and DEL it discourages: removed, since no escape makes them legal and a feed with one is not
 * well-formed (readers drop the whole feed).
 */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDFFF]/gu;
const ENTITY: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Text or attribute content: forbidden characters removed, markup characters escaped. */
export function xmlText(s: string): string {
  return s.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ENTITY[c]);
}

/**
 * RSS `description` is read as HTML by feed readers: the plain text is HTML-escaped first (so `<b>`
 * in an update shows as text and never runs), line breaks become `<br>`, then the whole is XML-escaped.
 */
export function htmlDescription(plain: string): string {
  const html = plain
    .replace(NOT_XML, '')
    .replace(/[&<>"']/g, (c) => ENTITY[c])
    .replace(/\r\n|\r|\n/g, '<br>');
  return xmlText(html);
}

/** RFC 822 date with a four-digit year and `GMT` (what RSS 2.0 and the W3C validator accept). */
export function rfc822(d: Date): string {
  return d.toUTCString();
}

export function renderRss(feed: Feed): string {
  const newest = feed.items.reduce((t, i) => Math.max(t, i.date.getTime()), 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '<channel>',
    `<title>${xmlText(feed.title)}</title>`,
    `<link>${xmlText(feed.link)}</link>`,
    `<description>${xmlText(feed.description)}</description>`,
    `<atom:link href="${xmlText(feed.self)}" rel="self" type="application/rss+xml"/>`,
    '<language>en</language>',
    // The newest item's time, not "now": an unchanged feed keeps its bytes and so its ETag.
    ...(newest ? [`<lastBuildDate>${rfc822(new Date(newest))}</lastBuildDate>`] : []),
    '<docs>https://www.rssboard.org/rss-specification</docs>',
    `<ttl>${feed.ttlMinutes}</ttl>`,
  ];
  for (const i of feed.items)
    lines.push(
      '<item>',
      `<title>${xmlText(i.title)}</title>`,
      `<link>${xmlText(i.link)}</link>`,
      `<description>${htmlDescription(i.description)}</description>`,
      `<category>${xmlText(i.category)}</category>`,
      `<guid isPermaLink="false">${xmlText(i.guid)}</guid>`,
      `<pubDate>${rfc822(i.date)}</pubDate>`,
      '</item>',
    );
  lines.push('</channel>', '</rss>', '');
  return lines.join('\n');
}
