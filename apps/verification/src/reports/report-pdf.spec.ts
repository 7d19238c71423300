import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReportContent } from './report-content';
import { renderReportPdf } from './report-pdf';

const content: ReportContent = {
  reportId: '6f1f2c3a-8d4e-4b7a-9c1d-2e3f4a5b6c7d',
  language: 'tr',
  issuedAt: '2026-11-24T09:15:00.000Z',
  verifyUrl: 'https://verify.example.com/verify/v1/reports/6f1f2c3a-8d4e-4b7a-9c1d-2e3f4a5b6c7d',
  organizationName: 'Alem Bank',
  case: {
    id: '9b2f7c1e-4a3d-4e8f-b6a1-0c5d2e7f8a90',
    externalReferenceId: 'APP-2026-0042',
    applicantType: 'Individual',
    applicantName: 'Ayşe Yılmaz Ğİ',
    applicantBirthDate: '1990-04-17',
    applicantCountryCode: 'TR',
    reportCountryCode: 'TR',
  },
  summary: {
    id: '1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    caseId: '9b2f7c1e-4a3d-4e8f-b6a1-0c5d2e7f8a90',
    version: 3,
    generatedAt: '2026-11-24T09:10:00.000Z',
    identityMatch: { status: 'match' },
    authenticity: { status: 'inconclusive' },
    flags: [],
    recommendation: 'approve',
    rulesVersion: '2026.11',
  },
};
const texts = (key: string, args?: Record<string, string>) =>
  `«${key}»${args ? Object.values(args).join(' ') : ''} Oʻzbekcha Қазақша`;

describe('report PDF', () => {
  it('is deterministic: the same content gives the same bytes', async () => {
    const a = await renderReportPdf(content, texts);
    const b = await renderReportPdf(content, texts);
    expect(a.subarray(0, 8).toString('latin1')).toBe('%PDF-1.7');
    expect(a.equals(b)).toBe(true);
    const other = await renderReportPdf({ ...content, issuedAt: '2026-11-24T09:15:01.000Z' }, texts);
    expect(other.equals(a)).toBe(false);
  });

  it('embeds its own font (no standard Helvetica text) and keeps Turkish, Uzbek and Kazakh letters', async () => {
    const pdf = await renderReportPdf(content, texts);
    const dir = mkdtempSync(join(tmpdir(), 'report-pdf-'));
    try {
      writeFileSync(join(dir, 'r.pdf'), pdf);
      const fonts = execFileSync('pdffonts', [join(dir, 'r.pdf')]).toString();
      expect(fonts).toMatch(/DejaVuSans\b.*yes/);
      expect(fonts).not.toContain('Helvetica');
      const text = execFileSync('pdftotext', ['-enc', 'UTF-8', join(dir, 'r.pdf'), '-']).toString();
      expect(text).toContain('Ayşe Yılmaz Ğİ');
      expect(text).toContain('Oʻzbekcha Қазақша');
      expect(text).toContain('«labels.noFlags»');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
