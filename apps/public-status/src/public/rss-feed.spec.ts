import { assertValidRss, childrenOf, parseXmlStrict } from '../../test/feed-rules';
import { htmlDescription, renderRss, rfc822, xmlText, type Feed } from './rss-feed';

const HOSTILE = `<script>alert("x")</script> & 'quotes' ]]> \u0000\u0007\u001B\uFFFE\uD800 end`;

const feed = (over: Partial<Feed> = {}): Feed => ({
  title: 'Acme status',
  description: 'Incidents and maintenance of Acme',
  link: 'https://status.example.com/PublicStatus/StatusPage?business=acme',
  self: 'https://status.example.com/PublicStatus/Rss?business=acme',
  ttlMinutes: 1,
  items: [
    {
      guid: 'urn:public-status:incident:inc_aaaaaaaaaaaa:update:2',
      title: 'DB down [resolved]',
      description: 'Fixed.\nAll good.',
      link: 'https://status.example.com/PublicStatus/StatusPage?business=acme#inc_aaaaaaaaaaaa',
      date: new Date('2026-11-23T10:00:00.000Z'),
      category: 'incident',
    },
    {
      guid: 'urn:public-status:incident:inc_aaaaaaaaaaaa:update:1',
      title: HOSTILE,
      description: HOSTILE,
      link: 'https://status.example.com/PublicStatus/StatusPage?business=acme#inc_aaaaaaaaaaaa',
      date: new Date('2026-11-23T09:00:00.000Z'),
      category: 'incident',
    },
  ],
  ...over,
});

describe('RSS feed rendering', () => {
  it('passes the offline W3C rules, with a hostile title and body', () => {
    const ch = assertValidRss(renderRss(feed()));
    const [, hostile] = childrenOf(ch, 'item');
    // The text survives (minus characters XML cannot carry), as text: no element was injected.
    expect(childrenOf(hostile, 'title')[0].text).toBe(`<script>alert("x")</script> & 'quotes' ]]>  end`);
    expect(hostile.children.map((c) => c.name)).toEqual([
      'title',
      'link',
      'description',
      'category',
      'guid',
      'pubDate',
    ]);
    // description is HTML for readers: once decoded, the markup is still escaped text.
    expect(childrenOf(hostile, 'description')[0].text).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;quotes&apos; ]]&gt;  end',
    );
    expect(childrenOf(ch, 'lastBuildDate')[0].text).toBe('Mon, 23 Nov 2026 10:00:00 GMT');
  });

  it('is valid without items (no lastBuildDate then)', () => {
    const ch = assertValidRss(renderRss(feed({ items: [] })));
    expect(childrenOf(ch, 'lastBuildDate')).toEqual([]);
  });

  it('escapes every markup character and drops what XML cannot carry', () => {
    expect(xmlText(`a<b>&"'\u0001\u000B\u0085z`)).toBe('a&lt;b&gt;&amp;&quot;&apos;z');
    expect(xmlText('tab\tnl\ncr\r ok')).toBe('tab\tnl\ncr\r ok');
    expect(xmlText('emoji \u{1F600} kept')).toBe('emoji \u{1F600} kept');
    expect(htmlDescription('a\nb')).toBe('a&lt;br&gt;b');
    expect(rfc822(new Date('2026-02-01T00:00:00Z'))).toBe('Sun, 01 Feb 2026 00:00:00 GMT');
  });

  describe('the checker bites', () => {
    it.each([
      ['a raw <', '<rss><channel><title>a < b</title></channel></rss>'],
      ['a raw &', '<rss><channel><title>a & b</title></channel></rss>'],
      ['an unknown entity', '<rss><channel><title>&nbsp;</title></channel></rss>'],
      ['mis-nesting', '<rss><channel><title></channel></title></rss>'],
      ['an unclosed element', '<rss><channel>'],
      ['a control character', '<rss>\u0001</rss>'],
      ['an unquoted attribute', '<rss version=2.0></rss>'],
      ['an unbound prefix', '<rss><atom:link/></rss>'],
      ['two roots', '<rss/><rss/>'],
      ["a literal ']]>' in text", '<rss>a]]>b</rss>'],
    ])('refuses %s', (_what, xml) => {
      expect(() => parseXmlStrict(xml)).toThrow();
    });

    const valid = renderRss(feed());
    it.each([
      ['a missing self link', valid.replace(/<atom:link[^>]*\/>/, '')],
      ['a bad date', valid.replace('Mon, 23 Nov 2026 10:00:00 GMT', '2026-11-23T10:00:00Z')],
      ['a wrong weekday', valid.replace('Mon, 23 Nov 2026 10:00:00 GMT', 'Tue, 23 Nov 2026 10:00:00 GMT')],
      ['a duplicate guid', valid.replace(':update:2<', ':update:1<')],
      ['a relative link', valid.replace('<link>https://status.example.com', '<link>')],
      ['a missing channel description', valid.replace(/<description>Incidents[^<]*<\/description>/, '')],
    ])('refuses %s', (_what, xml) => {
      expect(() => assertValidRss(xml)).toThrow();
    });
  });
});
