import { DAV, parseXml, XML_LIMITS } from './dav-xml';

const nested = (n: number, closed = true) =>
  `<d:propfind xmlns:d="DAV:"><d:prop>${'<a>'.repeat(n)}${closed ? '</a>'.repeat(n) : ''}</d:prop></d:propfind>`;

describe('parseXml', () => {
  it('reads a namespaced body into elements', () => {
    const root = parseXml('<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>');
    expect([root.ns, root.name, root.children[0].children[0].name]).toEqual([DAV, 'propfind', 'getetag']);
  });

  it.each([
    ['a DOCTYPE', '<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>', 'DOCTYPE'],
    ['an undefined entity', '<x>&lol;</x>', 'entity'],
    ['nesting past the limit (closed)', nested(XML_LIMITS.depth + 5), 'nested too deeply'],
    // The parser stops at the first fault: the rest of a 100,000-deep body is never read.
    ['100,000 levels, unclosed', nested(100_000, false), 'nested too deeply'],
    ['more elements than the limit', `<x>${'<y/>'.repeat(XML_LIMITS.elements + 1)}</x>`, 'too many elements'],
    ['more text than the limit', `<x>${'t'.repeat(XML_LIMITS.textChars + 1)}</x>`, 'text too long'],
    ['no root', '   ', 'root'],
  ])('refuses %s', (_, body, message) => {
    expect(() => parseXml(body)).toThrow(message);
  });
});
