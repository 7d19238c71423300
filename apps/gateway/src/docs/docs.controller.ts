import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Controller, Get, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { I18nService } from 'nestjs-i18n';
import { Public } from '@platform/auth';
import { CommonError, RawResponse, commonError, escapeHtml } from '@platform/envelope';
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES, resolveLanguage, type Language } from '@platform/i18n';
import { DocsAccessGuard } from './docs-access.guard';
import { readReferences } from './reference-files';

const SWAGGER_UI = dirname(require.resolve('swagger-ui-dist/package.json'));

/** The few files a reference page loads, read once: swagger-ui-dist's bundle and style, and ours. */
const ASSETS: Record<string, { type: string; body: Buffer }> = {
  'swagger-ui-bundle.js': {
    type: 'text/javascript; charset=utf-8',
    body: readFileSync(join(SWAGGER_UI, 'swagger-ui-bundle.js')),
  },
  'swagger-ui.css': {
    type: 'text/css; charset=utf-8',
    body: readFileSync(join(SWAGGER_UI, 'swagger-ui.css')),
  },
  'reference-page.js': {
    type: 'text/javascript; charset=utf-8',
    body: readFileSync(join(__dirname, 'assets', 'reference-page.js')),
  },
};

const isLanguage = (v: unknown): v is Language =>
  typeof v === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(v);

/**
 * The API reference of every service, through the gateway: /docs lists them, /docs/<api>?lang=<xx>
 * is Swagger UI in that language ("Try it out" calls the API through this same address), and
 * /docs/<api>/openapi.<xx>.json the OpenAPI 3.1 document. Closed in production unless logged in.
 */
@ApiExcludeController()
@Controller('docs')
@Public()
@UseGuards(DocsAccessGuard)
export class DocsController {
  private readonly references = readReferences();

  constructor(private readonly i18n: I18nService) {}

  private language(req: Request, requested: unknown): Language {
    return isLanguage(requested) ? requested : resolveLanguage(req.headers);
  }

  private text(key: string, lang: Language): string {
    return String(this.i18n.t(`docs.${key}` as never, { lang }));
  }

  @Get()
  @RawResponse()
  index(@Req() req: Request, @Res() res: Response, @Query('lang') requested: unknown): void {
    const lang = this.language(req, requested);
    const rows = [...this.references.titles].map(([api, titles]) => {
      const links = SUPPORTED_LANGUAGES.filter((l) => titles.has(l))
        .map((l) => `<a href="/docs/${api}?lang=${l}" hreflang="${l}">${escapeHtml(LANGUAGE_NAMES[l])}</a>`)
        .join(' · ');
      return `<li><a href="/docs/${api}?lang=${lang}">${escapeHtml(titles.get(lang) ?? api)}</a><br>${links}</li>`;
    });
    html(
      res,
      page(
        lang,
        this.text('title', lang),
        `<h1>${escapeHtml(this.text('title', lang))}</h1>
<p>${escapeHtml(this.text('intro', lang))}</p>
<ul class="apis">${rows.join('\n')}</ul>`,
      ),
    );
  }

  @Get('assets/:file')
  @RawResponse()
  asset(@Param('file') file: string, @Res() res: Response): void {
    const asset = Object.prototype.hasOwnProperty.call(ASSETS, file) ? ASSETS[file] : undefined;
    if (!asset) throw commonError(CommonError.DOCS_NOT_FOUND);
    res.setHeader('content-type', asset.type);
    res.setHeader('cache-control', 'public, max-age=3600');
    res.end(asset.body);
  }

  @Get(':api')
  @RawResponse()
  reference(
    @Param('api') api: string,
    @Req() req: Request,
    @Res() res: Response,
    @Query('lang') requested: unknown,
  ): void {
    const titles = this.references.titles.get(api);
    if (!titles) throw commonError(CommonError.DOCS_NOT_FOUND);
    const lang = this.language(req, requested);
    const options = SUPPORTED_LANGUAGES.filter((l) => titles.has(l))
      .map(
        (l) =>
          `<option value="${l}"${l === lang ? ' selected' : ''}>${escapeHtml(LANGUAGE_NAMES[l])}</option>`,
      )
      .join('');
    const spec = `/docs/${api}/openapi.${lang}.json`;
    html(
      res,
      page(
        lang,
        `${titles.get(lang) ?? api} · ${this.text('title', lang)}`,
        `<header class="bar"><a href="/docs?lang=${lang}">${escapeHtml(this.text('title', lang))}</a>
<label>${escapeHtml(this.text('language', lang))} <select id="language">${options}</select></label>
<a href="${spec}" download>${escapeHtml(this.text('download', lang))}</a></header>
<div id="reference" data-spec="${escapeHtml(spec)}"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/reference-page.js"></script>`,
        '<link rel="stylesheet" href="/docs/assets/swagger-ui.css">',
      ),
    );
  }

  @Get(':api/:file')
  @RawResponse()
  document(@Param('api') api: string, @Param('file') file: string, @Res() res: Response): void {
    const m = /^openapi\.([a-z]{2})\.json$/.exec(file);
    const text = m && isLanguage(m[1]) ? this.references.documents.get(api)?.get(m[1]) : undefined;
    if (!text) throw commonError(CommonError.DOCS_NOT_FOUND);
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(text);
  }
}

/** Set only on success: an error answered from the same handler stays JSON (the envelope). */
function html(res: Response, body: string): void {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end(body);
}

function page(lang: Language, title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${head}
<style>
body { font-family: system-ui, sans-serif; margin: 0; }
h1, p, ul.apis { margin: 1rem 2rem; }
ul.apis li { margin: 0.75rem 0; }
.bar { display: flex; gap: 1.5rem; align-items: center; padding: 0.75rem 2rem; background: #1b1b1b; color: #fff; }
.bar a { color: #fff; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}
