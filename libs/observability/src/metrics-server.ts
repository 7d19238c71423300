import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scrapeMetrics } from './metrics';

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on a port of its own, for an app whose own port is public (the gateway: the ingress
 * sends it every path). Nothing else is served there; the cluster's NetworkPolicy admits Prometheus
 * only, so no credentials are asked.
 */
export async function startMetricsServer(port: number, host: string): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    scrapeMetrics().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${err.message}\n`),
    );
  });
  // A scrape is short; a stuck client must not hold shutdown.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
