import { createHash } from 'node:crypto';
import { escapeHtml } from '@platform/envelope';
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES, type Language } from '@platform/i18n';
import type { ReportText } from './report-pdf';
import { JWKS_PUBLIC_PATH, REPORTS_PUBLIC_PATH, type CheckView, type PublicReportView } from './report-views';

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;background:#f4f6f9}
main{max-width:760px;margin:0 auto;padding:16px}
nav{display:flex;flex-wrap:wrap;gap:8px;justify-content:flex-end;font-size:14px;margin-bottom:8px}
nav a{color:#1a4f9c;text-decoration:none}nav a[aria-current]{font-weight:700;color:#1d2330}
.card{background:#fff;border-radius:10px;padding:20px;margin-bottom:16px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h1{font-size:24px;margin:0 0 8px}h2{font-size:19px;margin:0 0 8px}
.badge{display:inline-block;padding:4px 10px;border-radius:99px;font-weight:700;font-size:15px}
.ok{background:#e3f5e9;color:#13612f}.warn{background:#fff4d6;color:#7a5200}.bad{background:#fde3e3;color:#9b1c1c}
dl{display:grid;grid-template-columns:minmax(120px,max-content) 1fr;gap:6px 16px;margin:12px 0 0}
dt{color:#5a6478}dd{margin:0;overflow-wrap:anywhere}code{font-size:13px;overflow-wrap:anywhere}
input[type=file],input[type=password]{display:block;width:100%;margin:8px 0 12px;padding:8px;font:inherit;border:1px solid #c4cad6;border-radius:6px;background:#fff}
button{font:inherit;padding:10px 18px;border:0;border-radius:6px;background:#1a4f9c;color:#fff;cursor:pointer}
a{color:#1a4f9c}
@media (max-width:520px){dl{grid-template-columns:1fr}dd{margin-bottom:6px}}
`;

/** The page's Content-Security-Policy: nothing but this one inline stylesheet, forms to this origin. */
export const PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const utc = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

function page(lang: Language, title: string, body: string, switcherPath: string): string {
  const links = SUPPORTED_LANGUAGES.map(
    (l) =>
      `<a href="${escapeHtml(`${switcherPath}?lang=${l}`)}" hreflang="${l}" lang="${l}"${l === lang ? ' aria-current="true"' : ''}>${LANGUAGE_NAMES[l]}</a>`,
  ).join('');
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main><nav aria-label="Language">${links}</nav>
${body}
</main></body></html>`;
}

const row = (label: string, value: string) => `<dt>${escapeHtml(label)}</dt><dd>${value}</dd>`;

/** The report's public page: issued, status, hash and signature, the check form, the password form. */
export function renderReportPage(lang: Language, v: PublicReportView, t: ReportText): string {
  const path = `${REPORTS_PUBLIC_PATH}${v.reportId}`;
  const cls = v.status === 'current' ? 'ok' : v.status === 'superseded' ? 'warn' : 'bad';
  const rows = [
    row(t('reportId'), `<code>${escapeHtml(v.reportId)}</code>`),
    row(t('issuedAt'), escapeHtml(utc(v.issuedAt))),
    row(t('organization'), escapeHtml(v.organizationName)),
    row(t('status'), `<span class="badge ${cls}">${escapeHtml(t(`statuses.${v.status}`))}</span>`),
    ...(v.supersededBy
      ? [
          row(
            t('supersededBy'),
            `<a href="${escapeHtml(`${REPORTS_PUBLIC_PATH}${v.supersededBy}?lang=${lang}`)}"><code>${escapeHtml(v.supersededBy)}</code></a>`,
          ),
        ]
      : []),
    ...(v.revokedAt ? [row(t('revokedAt'), escapeHtml(utc(v.revokedAt)))] : []),
    row(t('sha256'), `<code>${escapeHtml(v.sha256)}</code>`),
    row(t('signature'), `<code>${escapeHtml(v.signature)}</code>`),
    row(t('kid'), `<code>${escapeHtml(v.kid)}</code>`),
    row(t('keys'), `<a href="${JWKS_PUBLIC_PATH}">${JWKS_PUBLIC_PATH}</a>`),
  ];
  const open =
    v.passwordProtected && v.status !== 'revoked'
      ? `<section class="card"><h2>${escapeHtml(t('openTitle'))}</h2><p>${escapeHtml(t('openText'))}</p>
<form method="post" action="${escapeHtml(`${path}/open?lang=${lang}`)}">
<label>${escapeHtml(t('password'))}<input type="password" name="password" required maxlength="256" autocomplete="off"></label>
<button type="submit">${escapeHtml(t('openButton'))}</button></form></section>`
      : '';
  return page(
    lang,
    t('title'),
    `<section class="card"><h1>${escapeHtml(t('title'))}</h1>
<p><span class="badge ok">${escapeHtml(t('issued'))}</span></p><p>${escapeHtml(t('issuedText'))}</p>
<dl>${rows.join('')}</dl></section>
<section class="card"><h2>${escapeHtml(t('checkTitle'))}</h2><p>${escapeHtml(t('checkText'))}</p>
<form method="post" action="${escapeHtml(`${path}/check?lang=${lang}`)}" enctype="multipart/form-data">
<label>${escapeHtml(t('file'))}<input type="file" name="file" accept="application/pdf,.pdf" required></label>
<button type="submit">${escapeHtml(t('checkButton'))}</button></form></section>
${open}`,
    path,
  );
}

/** An id the platform never issued (or not an id at all). */
export function renderNotIssuedPage(lang: Language, reportId: string, t: ReportText): string {
  return page(
    lang,
    t('notIssued'),
    `<section class="card"><h1><span class="badge bad">${escapeHtml(t('notIssued'))}</span></h1>
<p>${escapeHtml(t('notIssuedText'))}</p><dl>${row(t('reportId'), `<code>${escapeHtml(reportId)}</code>`)}</dl></section>`,
    `${REPORTS_PUBLIC_PATH}${encodeURIComponent(reportId)}`,
  );
}

/** The answer to the page's upload form. */
export function renderCheckPage(lang: Language, c: CheckView, t: ReportText): string {
  const path = `${REPORTS_PUBLIC_PATH}${c.reportId}`;
  const ok = c.result === 'unaltered';
  return page(
    lang,
    t(c.result),
    `<section class="card"><h1><span class="badge ${ok ? 'ok' : 'bad'}">${escapeHtml(t(c.result))}</span></h1>
<p>${escapeHtml(t(ok ? 'unalteredText' : 'alteredText'))}</p>
<dl>${row(t('sha256'), `<code>${escapeHtml(c.sha256)}</code>`)}${row(t('status'), escapeHtml(t(`statuses.${c.status}`)))}</dl>
<p><a href="${escapeHtml(`${path}?lang=${lang}`)}">${escapeHtml(t('back'))}</a></p></section>`,
    path,
  );
}

/** A refused form (wrong password, unreadable upload) as a page, with the way back. */
export function renderProblemPage(lang: Language, reportId: string, message: string, t: ReportText): string {
  const path = `${REPORTS_PUBLIC_PATH}${encodeURIComponent(reportId)}`;
  return page(
    lang,
    t('title'),
    `<section class="card"><h1>${escapeHtml(t('title'))}</h1><p><span class="badge bad">${escapeHtml(message)}</span></p>
<p><a href="${escapeHtml(`${path}?lang=${lang}`)}">${escapeHtml(t('back'))}</a></p></section>`,
    path,
  );
}
