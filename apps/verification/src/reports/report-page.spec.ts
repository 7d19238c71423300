import { createHash } from 'node:crypto';
import { PAGE_CSP, renderNotIssuedPage, renderReportPage } from './report-page';
import type { PublicReportView } from './report-views';

const view: PublicReportView = {
  reportId: '6f1f2c3a-8d4e-4b7a-9c1d-2e3f4a5b6c7d',
  issuedByPlatform: true,
  issuedAt: '2026-11-24T09:15:00.000Z',
  organizationName: '<script>alert(1)</script> Bank',
  status: 'superseded',
  supersededBy: '7a7a7a7a-8d4e-4b7a-9c1d-2e3f4a5b6c7d',
  supersededAt: '2026-11-25T09:15:00.000Z',
  revokedAt: null,
  passwordProtected: true,
  sha256: 'a'.repeat(64),
  signature: 'h..s',
  kid: 'kid-1',
  jwksUrl: 'https://verify.example.com/verify/v1/jwks.json',
};
const t = (key: string) => `[${key}]`;

describe('report public page', () => {
  it('allows exactly its own inline stylesheet: the CSP hash is the hash of the <style> it sends', () => {
    const html = renderReportPage('en', view, t);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    const hash = createHash('sha256').update(style).digest('base64');
    expect(PAGE_CSP).toContain(`style-src 'sha256-${hash}'`);
    expect(PAGE_CSP).toContain("default-src 'none'");
    expect(html).not.toMatch(/<script|style="/);
  });

  it('escapes what it shows and links the newer report, the check form and the password form', () => {
    const html = renderReportPage('kk', view, t);
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Bank');
    expect(html).toContain(`href="/verify/v1/reports/${view.supersededBy}?lang=kk"`);
    expect(html).toContain(
      `action="/verify/v1/reports/${view.reportId}/check?lang=kk" enctype="multipart/form-data"`,
    );
    expect(html).toContain(`action="/verify/v1/reports/${view.reportId}/open?lang=kk"`);
    expect(html).toContain('[statuses.superseded]');
    expect(renderReportPage('kk', { ...view, passwordProtected: false }, t)).not.toContain('/open');
    expect(renderReportPage('kk', { ...view, status: 'revoked' }, t)).not.toContain('/open');
  });

  it('says "not issued" for an unknown id, escaping it', () => {
    const html = renderNotIssuedPage('ru', '"><img src=x>', t);
    expect(html).toContain('[notIssued]');
    expect(html).not.toContain('<img');
  });
});
