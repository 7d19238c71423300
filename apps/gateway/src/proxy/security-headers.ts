import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * Which security headers a response gets: `docs` is the gateway's Swagger UI, `public` and `widget` are
 * read from other sites (public status, the embeddable calendar widget), `api` is everything else.
 */
export type HeaderGroup = 'api' | 'public' | 'widget' | 'docs';

/**
 * Swagger UI (swagger-ui-dist) as the gateway serves it: its bundle, preset and initializer scripts and
 * its stylesheet from the gateway itself, inline style attributes, data: images (its SVG icons), and
 * "Try it out" / the JSON documents fetched from the same origin. No inline or remote scripts.
 */
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
];
/** JSON needs nothing: a response rendered as a document by mistake can load and run nothing. */
const API_CSP = ["default-src 'none'", "base-uri 'none'", "form-action 'none'"];

/** Set by the gateway on every response; an upstream's copy of one of these is dropped. */
const PAYLOAD_INDEPENDENT = new Set(['x-powered-by', 'server']);

const values = (v: number | string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : String(v).split(',');

/**
 * Security headers on every gateway response, its own and proxied ones (decision 0013): helmet's set
 * (nosniff, Referrer-Policy no-referrer, COOP, Origin-Agent-Cluster, ...), HSTS only in production,
 * X-Frame-Options DENY except for the embeddable widget, and a Content-Security-Policy per group. An
 * upstream that sends its own CSP (a document it renders, such as a PDF or the widget page) keeps it;
 * the gateway then adds a second policy with only its `frame-ancestors`, which browsers enforce too.
 */
export class SecurityHeaders {
  private readonly helmets: Record<HeaderGroup, ReturnType<typeof helmet>>;
  private readonly frames = new WeakMap<ServerResponse, string>();
  private readonly production: boolean;

  constructor(production: boolean) {
    this.production = production;
    const make = (crossOrigin: boolean, frameable: boolean) =>
      helmet({
        contentSecurityPolicy: false,
        // A year, for every subdomain; no `preload`, a commitment browsers cannot be asked to undo.
        strictTransportSecurity: production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
        crossOriginResourcePolicy: { policy: crossOrigin ? 'cross-origin' : 'same-origin' },
        xFrameOptions: frameable ? false : { action: 'deny' },
        referrerPolicy: { policy: 'no-referrer' },
      });
    this.helmets = {
      api: make(false, false),
      docs: make(false, false),
      public: make(true, false),
      widget: make(true, true),
    };
  }

  /**
   * Sets the group's headers on the response before anything is written.
   * @param frameAncestors who may frame a widget response (its product's origins); 'none' otherwise.
   */
  apply(req: IncomingMessage, res: ServerResponse, group: HeaderGroup, frameAncestors: string[] = []): void {
    this.helmets[group](req, res, () => undefined);
    const frame = `frame-ancestors ${group === 'widget' && frameAncestors.length ? frameAncestors.join(' ') : "'none'"}`;
    this.frames.set(res, frame);
    const content = group === 'docs' ? DOCS_CSP : group === 'widget' ? [] : API_CSP;
    const upgrade = this.production && group === 'docs' ? ['upgrade-insecure-requests'] : [];
    res.setHeader('Content-Security-Policy', [...content, frame, ...upgrade].join('; '));
  }

  /**
   * An upstream's response headers as the gateway sends them on: the gateway's own headers win
   * (security headers, CORS, X-Request-Id, X-Cache), an upstream's CORS headers are dropped (CORS is
   * decided here, per route group), Vary is merged, and an upstream CSP is kept next to the gateway's
   * frame-ancestors policy. The result is written with writeHead, after what `apply` set.
   */
  merge(res: ServerResponse, upstream: IncomingHttpHeaders, skip: ReadonlySet<string>): OutgoingHttpHeaders {
    const out: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(upstream)) {
      if (value === undefined || skip.has(name)) continue;
      if (name.startsWith('access-control-') || PAYLOAD_INDEPENDENT.has(name)) continue;
      if (name === 'content-security-policy') {
        const frame = this.frames.get(res);
        res.setHeader(name, [...(Array.isArray(value) ? value : [value]), ...(frame ? [frame] : [])]);
        continue;
      }
      if (name === 'vary' && res.hasHeader('vary')) {
        const merged = new Set([...values(res.getHeader('vary')), ...values(value)].map((v) => v.trim()));
        res.setHeader('Vary', [...merged].filter(Boolean).join(', '));
        continue;
      }
      if (res.hasHeader(name)) continue;
      out[name] = value;
    }
    return out;
  }
}
