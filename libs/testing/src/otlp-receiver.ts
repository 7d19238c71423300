import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** OTLP span kinds (opentelemetry-proto's Span.SpanKind). */
export const OtlpSpanKind = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;

/** A span as an OTLP/HTTP JSON export carries it, with its resource's service.name. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string };
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpKeyValue {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpKeyValue[];
        status?: { code?: number; message?: string };
      }[];
    }[];
  }[];
}

function valueOf(v: OtlpValue): unknown {
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(valueOf);
  if (v.intValue !== undefined) return Number(v.intValue);
  return v.stringValue ?? v.doubleValue ?? v.boolValue;
}

function attributes(list: OtlpKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a.value)]));
}

/** OTLP/JSON ids are hex; a base64 id (protobuf-style JSON) is turned into hex too. */
function hexId(id: string | undefined): string {
  if (!id) return '';
  return /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');
}

/**
 * A collector's OTLP/HTTP traces receiver (`POST /v1/traces`, JSON), for tests that start apps with
 * `OTEL_EXPORTER_OTLP_ENDPOINT` pointing here and look at the spans they export.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private server?: Server;
  url = '';

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/traces') {
          res.writeHead(404).end();
          return;
        }
        if (!String(req.headers['content-type']).startsWith('application/json')) {
          res.writeHead(415).end();
          return;
        }
        this.collect(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  private collect(body: OtlpExport): void {
    for (const rs of body.resourceSpans ?? []) {
      const service = String(attributes(rs.resource?.attributes)['service.name'] ?? '');
      for (const ss of rs.scopeSpans ?? [])
        for (const s of ss.spans ?? [])
          this.spans.push({
            service,
            traceId: hexId(s.traceId),
            spanId: hexId(s.spanId),
            parentSpanId: hexId(s.parentSpanId),
            name: s.name,
            kind: s.kind,
            attributes: attributes(s.attributes),
            status: s.status ?? {},
          });
    }
  }

  /** Waits until `find` returns something for the spans received so far. */
  async waitFor<T>(find: (spans: ReceivedSpan[]) => T | undefined, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find(this.spans);
      if (found !== undefined) return found;
      if (Date.now() > deadline) {
        const seen = this.spans.map(
          (s) => `${s.service} ${s.name} ${s.traceId}/${s.spanId}<-${s.parentSpanId}`,
        );
        throw new Error(`no such span in ${timeoutMs} ms; received:\n${seen.slice(-60).join('\n')}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    // The exporters keep their connections alive.
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
