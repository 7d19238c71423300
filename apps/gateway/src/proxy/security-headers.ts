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

interface GroupHeaders {
  set: [string, string][];
  removed: string[];
  /** The group's Content-Security-Policy when nobody may frame the answer. */
  csp: string;
}

const NO_FRAMING = "frame-ancestors 'none'";

/**
 * What a helmet middleware does to a response, recorded once: its headers depend on its options only,
 * so every request replays the list instead of running ~12 middlewares (bench/status-page: helmet was
 * ~4% of a cached GET's CPU). A unit test compares the replay with helmet run on a real response.
 */
function recorded(middleware: ReturnType<typeof helmet>): Omit<GroupHeaders, 'csp'> {
  const out: Omit<GroupHeaders, 'csp'> = { set: [], removed: [] };
  const res = {
    setHeader: (name: string, value: string) => out.set.push([name, String(value)]),
    removeHeader: (name: string) => out.removed.push(name),
  };
  let done = false;
  middleware({} as IncomingMessage, res as unknown as ServerResponse, () => (done = true));
  if (!done) throw new Error('helmet did not finish synchronously');
  return out;
}

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
  private readonly groups: Record<HeaderGroup, GroupHeaders>;
  private readonly frames = new WeakMap<ServerResponse, string>();

  constructor(production: boolean) {
    const make = (crossOrigin: boolean, frameable: boolean, content: string[]): GroupHeaders => ({
      ...recorded(
        helmet({
          contentSecurityPolicy: false,
          // A year, for every subdomain; no `preload`, a commitment browsers cannot be asked to undo.
          strictTransportSecurity: production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
          crossOriginResourcePolicy: { policy: crossOrigin ? 'cross-origin' : 'same-origin' },
          xFrameOptions: frameable ? false : { action: 'deny' },
          referrerPolicy: { policy: 'no-referrer' },
        }),
      ),
      csp: [...content, NO_FRAMING].join('; '),
    });
    const docs = make(false, false, DOCS_CSP);
    this.groups = {
      api: make(false, false, API_CSP),
      docs: production ? { ...docs, csp: `${docs.csp}; upgrade-insecure-requests` } : docs,
      public: make(true, false, API_CSP),
      widget: make(true, true, []),
    };
  }

  /**
   * Sets the group's headers on the response before anything is written.
   * @param frameAncestors who may frame a widget response (its product's origins); 'none' otherwise.
   */
  apply(_req: IncomingMessage, res: ServerResponse, group: HeaderGroup, frameAncestors: string[] = []): void {
    const headers = this.groups[group];
    for (const name of headers.removed) res.removeHeader(name);
    for (const [name, value] of headers.set) res.setHeader(name, value);
    if (group !== 'widget' || !frameAncestors.length) {
      this.frames.set(res, NO_FRAMING);
      res.setHeader('Content-Security-Policy', headers.csp);
      return;
    }
    const frame = `frame-ancestors ${frameAncestors.join(' ')}`;
    this.frames.set(res, frame);
    res.setHeader('Content-Security-Policy', frame);
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
