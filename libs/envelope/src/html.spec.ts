import { escapeHtml } from './html';

describe('escapeHtml', () => {
  it('escapes the five markup characters and leaves the rest', () => {
    expect(escapeHtml(`<a href="x">'&`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;');
    expect(escapeHtml('Oʻzbekcha — 100%')).toBe('Oʻzbekcha — 100%');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });
});
