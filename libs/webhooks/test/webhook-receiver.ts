import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Answer only after this long (a slow or hung receiver). */
  delayMs?: number;
}

/** A loopback HTTP receiver whose answer per path the test sets, recording every request. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly replies = new Map<string, (n: number) => Reply>();
  private server: Server | undefined;
  port = 0;

  /** `reply(n)` gets the 1-based number of the request on that path. */
  on(path: string, reply: (n: number) => Reply): void {
    this.replies.set(path, reply);
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  url(path: string, host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const reply = (this.replies.get(path) ?? ((): Reply => ({ status: 404 })))(this.at(path).length);
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(reply.status, reply.headers);
          res.end(reply.body ?? '');
        };
        if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
        else send();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
