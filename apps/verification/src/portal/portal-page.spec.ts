import { escapeHtml } from '@platform/envelope';
import { portalCsp, renderStatePage, renderUploadPage, type PortalTexts } from './portal-page';

import en from '../i18n/en/portal.json';

/** Compile-time: the page's texts in the i18n file have every key the renderer reads. */
const complete: PortalTexts = en.page;

/** The English texts with markup in every one of them: all must come out escaped. */
const texts = {
  ...Object.fromEntries(Object.keys(en.page).map((k) => [k, `${k} <b>&"'`])),
  kinds: { ...en.page.kinds, Selfie: 'Selfie <script>' },
} as unknown as PortalTexts;

describe('portal pages', () => {
  it('escapes every text and file name, and keeps the embedded JSON from closing its element', () => {
    const html = renderUploadPage({
      lang: 'en',
      nonce: 'n0nce',
      texts,
      kinds: ['Passport', 'Selfie'],
      applicantType: 'Individual',
      maxMb: 25,
      uploaded: [{ kind: 'Passport', fileName: '</script><img src=x onerror=alert(1)>.png' }],
    });
    expect(html).toContain('<h1>title &lt;b&gt;&amp;&quot;&#39;</h1>');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('Selfie <script>');
    const data = /<script type="application\/json" id="portal-data">([^]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(data).not.toContain('<');
    expect(JSON.parse(data).texts.kinds.Selfie).toBe('Selfie <script>');
    expect(html.match(/<script nonce="n0nce">/g)).toHaveLength(1);
  });

  it('reads its texts from the i18n file', () => {
    expect(renderStatePage('expired', 'en', 'n', complete)).toContain('<h1>This link has expired</h1>');
  });

  it('renders a state page without any form or script', () => {
    const html = renderStatePage('used', 'ru', 'n', texts);
    expect(html).toContain('<html lang="ru">');
    expect(html).toContain('data-state="used"');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<input');
  });

  it("allows nothing but the nonce's script and style", () => {
    const csp = portalCsp('abc');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'nonce-abc'");
    expect(csp).not.toContain('unsafe');
    expect(escapeHtml(`<a href="x">'&`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;');
  });
});
