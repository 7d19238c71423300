import { escapeHtml } from '@platform/envelope';
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES, type Language } from '@platform/i18n';
import type { DocumentKind } from '../documents/document-statuses';

/**
 * The borrower portal's HTML (docs/verification/portal.md): one upload page and four state pages,
 * rendered on the server from the `portal.page` texts of one language. Self-contained: inline CSS and
 * one inline script, both carrying the response's CSP nonce, no external resource at all, so the page
 * works under `default-src 'none'` and behind any gateway.
 */

/** The texts of `i18n/<lang>/portal.json` under `page`. */
export interface PortalTexts {
  title: string;
  intro: string;
  language: string;
  requiredIndividual: string;
  requiredBusiness: string;
  kindLabel: string;
  kinds: Record<PortalKind, string>;
  takePhoto: string;
  chooseFile: string;
  fileHint: string;
  uploading: string;
  uploaded: string;
  uploadFailed: string;
  uploadedList: string;
  nothingYet: string;
  finish: string;
  finishHint: string;
  finishing: string;
  keepPrivate: string;
  thanksTitle: string;
  thanksBody: string;
  usedTitle: string;
  usedBody: string;
  expiredTitle: string;
  expiredBody: string;
  invalidTitle: string;
  invalidBody: string;
  closedTitle: string;
  closedBody: string;
}

/** What the borrower may upload through the portal, by applicant type (the first is preselected). */
export const PORTAL_KINDS_BY_APPLICANT = {
  Individual: ['Passport', 'IdCard', 'DriverLicense', 'ResidencePermit', 'Selfie'],
  Business: ['CompanyRegistration', 'Selfie'],
} as const satisfies Record<string, readonly DocumentKind[]>;

export type PortalKind = (typeof PORTAL_KINDS_BY_APPLICANT)[keyof typeof PORTAL_KINDS_BY_APPLICANT][number];

export const portalKindsOf = (applicantType: string): readonly PortalKind[] =>
  applicantType === 'Business' ? PORTAL_KINDS_BY_APPLICANT.Business : PORTAL_KINDS_BY_APPLICANT.Individual;

/** The states a link can be in; every state but `open` is a page of its own. */
export type LinkState = 'open' | 'used' | 'expired' | 'closed' | 'invalid';

export const LINK_STATE_STATUS: Record<LinkState, number> = {
  open: 200,
  used: 410,
  expired: 410,
  closed: 410,
  invalid: 404,
};

export interface UploadedItem {
  kind: string;
  fileName: string;
}

export interface UploadPageInput {
  lang: Language;
  nonce: string;
  texts: PortalTexts;
  kinds: readonly PortalKind[];
  applicantType: string;
  maxMb: number;
  uploaded: readonly UploadedItem[];
}

/** JSON inside a <script> element: `<` escaped, so no text can close the element. */
const scriptJson = (v: unknown): string =>
  JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

const fill = (text: string, args: Record<string, string | number>): string =>
  text.replace(/\{(\w+)\}/g, (m, k: string) => (k in args ? String(args[k]) : m));

/** The Content-Security-Policy of a portal page: nothing but its own inline style and script. */
export function portalCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f3f5f8}
main{max-width:34rem;margin:0 auto;padding:1rem 1rem 3rem}
.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.08);margin-top:.75rem}
h1{font-size:1.5rem;line-height:1.25;margin:.5rem 0}
h2{font-size:1.1rem;margin:1.25rem 0 .5rem}
nav.langs{display:flex;flex-wrap:wrap;gap:.25rem .75rem;font-size:.9rem}
nav.langs a{color:#0b57d0;text-decoration:none;padding:.25rem 0}
nav.langs a[aria-current]{font-weight:700;color:#1b1f24}
label.field{display:block;font-weight:600;margin:1rem 0 .25rem}
select{width:100%;font:inherit;padding:.65rem;border:1px solid #aab2bd;border-radius:8px;background:#fff}
.pick{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:1rem}
.pick label,button{flex:1 1 12rem;display:inline-block;text-align:center;font:inherit;font-weight:600;padding:.8rem 1rem;border-radius:8px;border:2px solid #0b57d0;cursor:pointer}
.pick label.primary,button{background:#0b57d0;color:#fff}
.pick label.secondary{background:#fff;color:#0b57d0}
.pick input{position:absolute;width:1px;height:1px;opacity:0}
.pick input:focus-visible+label{outline:3px solid #f4b400}
button{width:100%}
button:disabled{background:#9bb3dd;border-color:#9bb3dd;cursor:not-allowed}
.hint,.muted{color:#5b6570;font-size:.9rem}
progress{width:100%;height:.75rem;margin-top:.75rem}
#status{min-height:1.5rem;margin:.5rem 0 0}
#status.error{color:#b3261e;font-weight:600}
ul.uploaded{list-style:none;padding:0;margin:0}
ul.uploaded li{padding:.5rem .75rem;border:1px solid #dfe3e8;border-radius:8px;margin-bottom:.4rem;background:#f8fafc}
ul.uploaded li.done::before{content:"\\2713  ";color:#137333;font-weight:700}
.warn{margin-top:1.25rem;font-size:.85rem;color:#6b4f00;background:#fff7e0;border-radius:8px;padding:.6rem .75rem}
.state h1{margin-top:0}
`;

/** The page script: uploads each chosen file with its kind, shows progress, then finishes. */
const SCRIPT = `(function(){
var T=JSON.parse(document.getElementById('portal-data').textContent);
var base=location.pathname.replace(/\\/+$/,'');
var $=function(id){return document.getElementById(id);};
var kind=$('kind'),camera=$('camera'),file=$('file'),list=$('uploaded'),finish=$('finish'),progress=$('progress'),status=$('status');
var count=list.querySelectorAll('li.done').length;
finish.disabled=count===0;
function say(text,error){status.textContent=text;status.className=error?'error':'';}
function errorOf(text){try{var b=JSON.parse(text);if(b&&typeof b.error==='string'&&b.error)return b.error;}catch(e){}return T.texts.uploadFailed;}
function busy(on){camera.disabled=on;file.disabled=on;kind.disabled=on;finish.disabled=on||count===0;}
function added(k,name){var empty=$('nothing');if(empty)empty.parentNode.removeChild(empty);var li=document.createElement('li');li.className='done';li.textContent=(T.texts.kinds[k]||k)+': '+name;list.appendChild(li);count++;}
function upload(input){
var f=input.files&&input.files[0];if(!f)return;
var k=kind.value,name=f.name||'upload',xhr=new XMLHttpRequest();
xhr.open('POST',base+'/documents');
xhr.setRequestHeader('Content-Type',f.type||'application/octet-stream');
xhr.setRequestHeader('X-Document-Kind',k);
xhr.setRequestHeader('X-File-Name',encodeURIComponent(name));
xhr.setRequestHeader('Accept-Language',T.lang);
progress.hidden=false;progress.value=0;say(T.texts.uploading);busy(true);
xhr.upload.onprogress=function(e){if(e.lengthComputable)progress.value=Math.round(e.loaded*100/e.total);};
xhr.onload=function(){input.value='';if(xhr.status>=200&&xhr.status<300){progress.value=100;added(k,name);busy(false);say(T.texts.uploaded);}else{busy(false);progress.hidden=true;say(errorOf(xhr.responseText),true);if(xhr.status===404||xhr.status===410)setTimeout(function(){location.reload();},2500);}};
xhr.onerror=function(){input.value='';busy(false);progress.hidden=true;say(T.texts.uploadFailed,true);};
xhr.send(f);
}
camera.addEventListener('change',function(){upload(camera);});
file.addEventListener('change',function(){upload(file);});
kind.addEventListener('change',function(){camera.setAttribute('capture',kind.value==='Selfie'?'user':'environment');});
finish.addEventListener('click',function(){
busy(true);say(T.texts.finishing);
var xhr=new XMLHttpRequest();xhr.open('POST',base+'/finish');xhr.setRequestHeader('Accept-Language',T.lang);
xhr.onload=function(){if(xhr.status>=200&&xhr.status<300){$('upload').hidden=true;$('thanks').hidden=false;$('thanks').focus();}else{busy(false);say(errorOf(xhr.responseText),true);}};
xhr.onerror=function(){busy(false);say(T.texts.uploadFailed,true);};
xhr.send();
});
})();`;

function languageNav(lang: Language, label: string): string {
  const links = SUPPORTED_LANGUAGES.map(
    (l) =>
      `<a href="?lang=${l}" hreflang="${l}" lang="${l}" data-lang="${l}"${l === lang ? ' aria-current="true"' : ''}>${escapeHtml(LANGUAGE_NAMES[l])}</a>`,
  ).join('');
  return `<nav class="langs" aria-label="${escapeHtml(label)}">${links}</nav>`;
}

function shell(lang: Language, nonce: string, title: string, body: string, script = ''): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${CSS}</style>
</head>
<body>
<main>
${body}
</main>
${script}
</body>
</html>
`;
}

/** The upload page of an open link. */
export function renderUploadPage(p: UploadPageInput): string {
  const t = p.texts;
  const options = p.kinds.map((k) => `<option value="${k}">${escapeHtml(t.kinds[k])}</option>`).join('');
  const items = p.uploaded.length
    ? p.uploaded
        .map(
          (u) =>
            `<li class="done">${escapeHtml(t.kinds[u.kind as PortalKind] ?? u.kind)}: ${escapeHtml(u.fileName)}</li>`,
        )
        .join('')
    : `<li id="nothing" class="muted">${escapeHtml(t.nothingYet)}</li>`;
  const required = p.applicantType === 'Business' ? t.requiredBusiness : t.requiredIndividual;
  const firstCapture = p.kinds[0] === 'Selfie' ? 'user' : 'environment';
  const body = `${languageNav(p.lang, t.language)}
<div class="card">
<section id="upload">
<h1>${escapeHtml(t.title)}</h1>
<p>${escapeHtml(t.intro)}</p>
<p class="muted" id="required">${escapeHtml(required)}</p>
<label class="field" for="kind">${escapeHtml(t.kindLabel)}</label>
<select id="kind" name="kind">${options}</select>
<div class="pick">
<input id="camera" type="file" accept="image/*,application/pdf" capture="${firstCapture}">
<label class="primary" for="camera">${escapeHtml(t.takePhoto)}</label>
<input id="file" type="file" accept="image/*,application/pdf">
<label class="secondary" for="file">${escapeHtml(t.chooseFile)}</label>
</div>
<p class="hint">${escapeHtml(fill(t.fileHint, { maxMb: p.maxMb }))}</p>
<progress id="progress" max="100" value="0" hidden></progress>
<p id="status" role="status" aria-live="polite"></p>
<h2>${escapeHtml(t.uploadedList)}</h2>
<ul class="uploaded" id="uploaded">${items}</ul>
<p class="muted">${escapeHtml(t.finishHint)}</p>
<button id="finish" type="button">${escapeHtml(t.finish)}</button>
<p class="warn">${escapeHtml(t.keepPrivate)}</p>
</section>
<section id="thanks" class="state" tabindex="-1" hidden>
<h1>${escapeHtml(t.thanksTitle)}</h1>
<p>${escapeHtml(t.thanksBody)}</p>
</section>
</div>`;
  const data = scriptJson({ lang: p.lang, texts: { ...t, fileHint: fill(t.fileHint, { maxMb: p.maxMb }) } });
  const script = `<script type="application/json" id="portal-data">${data}</script>
<script nonce="${p.nonce}">${SCRIPT}</script>`;
  return shell(p.lang, p.nonce, t.title, body, script);
}

/** The page of a link that cannot be used (used, expired, closed, or not a link at all). */
export function renderStatePage(
  state: Exclude<LinkState, 'open'>,
  lang: Language,
  nonce: string,
  t: PortalTexts,
): string {
  const [title, text] = {
    used: [t.usedTitle, t.usedBody],
    expired: [t.expiredTitle, t.expiredBody],
    closed: [t.closedTitle, t.closedBody],
    invalid: [t.invalidTitle, t.invalidBody],
  }[state];
  const body = `${languageNav(lang, t.language)}
<div class="card state" id="state" data-state="${state}">
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
</div>`;
  return shell(lang, nonce, title, body);
}
