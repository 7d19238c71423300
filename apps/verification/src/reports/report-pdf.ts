import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { describeValue, type ReportContent } from './report-content';

/** A text of the report's language: `reports.pdf.<key>` with its placeholders filled. */
export type ReportText = (key: string, args?: Record<string, string>) => string;

/**
 * DejaVu Sans, vendored with its licence (apps/verification/assets/fonts; the build copies it to
 * dist): PDF's standard Helvetica has no Cyrillic, and a system font is not there in every image.
 */
const FONTS = join(__dirname, '..', '..', 'assets', 'fonts');
let fonts: { regular: Buffer; bold: Buffer } | undefined;
/** Read once per process (about 1.5 MB); pdfkit embeds only the glyphs a report uses. */
const fontFiles = () =>
  (fonts ??= {
    regular: readFileSync(join(FONTS, 'DejaVuSans.ttf')),
    bold: readFileSync(join(FONTS, 'DejaVuSans-Bold.ttf')),
  });

const MARGIN = 50;
/** Side of the QR code in points (quiet zone included): ~4 mm a module at version 6, scans at 150 dpi. */
const QR_SIDE = 140;
const QR_QUIET_MODULES = 4;
const LABEL_WIDTH = 130;

const utc = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

/** Draws the QR code (error correction M) as filled squares: vector, sharp at any resolution. */
function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, side: number): void {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const unit = side / (n + 2 * QR_QUIET_MODULES);
  doc.save();
  doc.rect(x, y, side, side).fill('#ffffff');
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++)
      if (qr.modules.get(r, c))
        doc.rect(x + (c + QR_QUIET_MODULES) * unit, y + (r + QR_QUIET_MODULES) * unit, unit, unit);
  doc.fill('#000000');
  doc.restore();
}

/**
 * The summary report as PDF bytes. Deterministic: the same content gives the same bytes (the
 * document dates are the issue time, pdfkit's file id derives from them, the QR code is vector).
 */
export function renderReportPdf(content: ReportContent, t: ReportText): Promise<Buffer> {
  const issued = new Date(content.issuedAt);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    pdfVersion: '1.7',
    lang: content.language,
    displayTitle: true,
    info: {
      Title: t('title'),
      Subject: content.reportId,
      Creator: 'Verification service',
      Producer: 'Verification service',
      CreationDate: issued,
      ModDate: issued,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', fontFiles().regular);
  doc.registerFont('bold', fontFiles().bold);

  const width = doc.page.width - 2 * MARGIN;
  const textWidth = width - QR_SIDE - 20;
  drawQr(doc, content.verifyUrl, MARGIN + width - QR_SIDE, MARGIN, QR_SIDE);

  doc.font('bold').fontSize(18).fillColor('#111111').text(t('title'), MARGIN, MARGIN, { width: textWidth });
  doc.moveDown(0.3);
  doc
    .font('regular')
    .fontSize(9)
    .fillColor('#444444')
    .text(t('issuedFor', { organization: content.organizationName }), { width: textWidth });
  doc.moveDown(0.8);

  const row = (label: string, value: string, w = textWidth) => {
    const y = doc.y;
    doc
      .font('bold')
      .fontSize(9.5)
      .fillColor('#333333')
      .text(label, MARGIN, y, { width: LABEL_WIDTH - 8 });
    const afterLabel = doc.y;
    doc
      .font('regular')
      .fontSize(9)
      .fillColor('#111111')
      .text(value, MARGIN + LABEL_WIDTH, y, { width: w - LABEL_WIDTH });
    doc.y = Math.max(doc.y, afterLabel) + 3;
    doc.x = MARGIN;
  };
  const heading = (text: string) => {
    doc.moveDown(0.6);
    doc.font('bold').fontSize(12).fillColor('#111111').text(text, MARGIN, doc.y, { width });
    doc.moveDown(0.3);
  };

  const c = content.case;
  const s = content.summary;
  row(t('labels.reportId'), content.reportId);
  row(t('labels.issuedAt'), utc(content.issuedAt));
  row(t('labels.caseId'), c.id);
  row(t('labels.externalReference'), c.externalReferenceId);
  doc.y = Math.max(doc.y, MARGIN + QR_SIDE + 6);
  row(t('labels.applicant'), c.applicantName ?? '—', width);
  row(t('labels.birthDate'), c.applicantBirthDate ?? '—', width);
  row(t('labels.applicantType'), t(`applicantTypes.${c.applicantType}`), width);
  row(t('labels.applicantCountry'), c.applicantCountryCode, width);
  row(t('labels.reportCountry'), c.reportCountryCode, width);
  row(
    t('labels.summaryVersion'),
    t('labels.summaryVersionValue', { version: String(s.version), at: utc(s.generatedAt) }),
    width,
  );
  row(t('labels.rulesVersion'), s.rulesVersion, width);

  heading(t('labels.results'));
  row(t('labels.identityMatch'), t(`identity.${s.identityMatch.status}`), width);
  if (s.identityMatch.name !== undefined)
    row(t('labels.nameMatch'), describeValue(s.identityMatch.name), width);
  if (s.identityMatch.birthDate !== undefined)
    row(t('labels.birthDateMatch'), describeValue(s.identityMatch.birthDate), width);
  row(t('labels.authenticity'), t(`authenticityStatus.${s.authenticity.status}`), width);
  row(t('labels.recommendation'), t(`recommendations.${s.recommendation}`), width);

  heading(t('labels.flags', { count: String(s.flags.length) }));
  if (!s.flags.length) row('', t('labels.noFlags'), width);
  s.flags.forEach((f, i) => {
    doc
      .font('bold')
      .fontSize(9.5)
      .fillColor('#111111')
      .text(`${i + 1}. ${f.code} (${t(`severities.${f.severity}`)})`, MARGIN, doc.y, { width });
    doc.font('regular').fontSize(9).fillColor('#222222');
    doc.text(`${t('labels.rule')}: ${f.rule}`, MARGIN + 14, doc.y, { width: width - 14 });
    doc.text(`${t('labels.evidence')}: ${describeValue(f.evidence)}`, MARGIN + 14, doc.y, {
      width: width - 14,
    });
    if (f.stepId) doc.text(`${t('labels.step')}: ${f.stepId}`, MARGIN + 14, doc.y, { width: width - 14 });
    doc.moveDown(0.4);
  });

  doc.moveDown(1);
  doc
    .font('regular')
    .fontSize(8.5)
    .fillColor('#444444')
    .text(t('labels.verifyHint'), MARGIN, doc.y, { width })
    .fillColor('#1a4f9c')
    .text(content.verifyUrl, { width, link: content.verifyUrl });
  doc.end();
  return done;
}
