import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server, type TLSSocket } from 'node:tls';
import { Kafka, logLevel } from 'kafkajs';
import { KafkaClientConfig, loadConfig } from '@platform/config';
import { kafkaClientOptions } from '../src/kafka-client';
import { createTestCa, type TestCa, type TestCertificate } from './test-pki';

interface Seen {
  authorized: boolean;
  client?: string;
  /** Bytes of the first Kafka request (ApiVersions) that came through the tunnel. */
  bytes: number;
}

/**
 * kafkajs with the options libs/kafka makes, against a TLS listener whose certificate a CA of its own
 * signed, as Strimzi's listeners are: the librdkafka mock cluster has no TLS, so the listener is a bare
 * TLS server that records the handshake and the first request, then hangs up. What is proven is the TLS
 * part: with KAFKA_SSL_CA_FILE the client trusts the broker (and, with a client certificate, the broker
 * knows the client); without it, Node's public roots refuse the broker, which is what production saw.
 */
describe('Kafka over TLS with a cluster CA (KAFKA_SSL_CA_FILE)', () => {
  let ca: TestCa;
  let dir: string;
  const servers: Server[] = [];

  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  /** A TLS listener with the given certificate, asking for (not requiring) a client certificate. */
  async function broker(cert: TestCertificate): Promise<{ port: number; seen: Seen[] }> {
    const seen: Seen[] = [];
    const server = createServer({ ...cert, ca: [ca.cert], requestCert: true, rejectUnauthorized: false });
    server.on('secureConnection', (socket: TLSSocket) => {
      const record: Seen = { authorized: socket.authorized, bytes: 0 };
      const peer = socket.getPeerCertificate();
      if (peer && peer.subject) record.client = String(peer.subject.CN);
      seen.push(record);
      socket.once('data', (d: Buffer) => {
        record.bytes = d.length;
        socket.destroy();
      });
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { port: (server.address() as AddressInfo).port, seen };
  }

  /** Connects as an app would (its kafkajs options), once, and reports how that ended. */
  async function connect(port: number, env: Record<string, string>): Promise<string> {
    const cfg = loadConfig(KafkaClientConfig, {
      KAFKA_BROKERS: `localhost:${port}`,
      KAFKA_SSL: 'true',
      ...env,
    });
    const admin = new Kafka({
      ...kafkaClientOptions(cfg, 'tls-test'),
      retry: { retries: 0 },
      logLevel: logLevel.NOTHING,
    }).admin();
    try {
      await admin.connect();
      return 'connected';
    } catch (err) {
      return (err as Error).message;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kafka-tls-'));
    ca = createTestCa('platform-kafka cluster CA');
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    rmSync(dir, { recursive: true, force: true });
  });

  it('without the CA file, the broker is refused (the production failure)', async () => {
    const b = await broker(ca.issue('platform-kafka-kafka-bootstrap', ['localhost']));
    expect(await connect(b.port, {})).toMatch(/self-signed certificate in certificate chain/);
    expect(b.seen).toEqual([]);
  });

  it('with the cluster CA, the handshake succeeds and the first Kafka request goes through', async () => {
    const b = await broker(ca.issue('platform-kafka-kafka-bootstrap', ['localhost']));
    await connect(b.port, { KAFKA_SSL_CA_FILE: file('ca.crt', ca.cert) });
    expect(b.seen).toHaveLength(1);
    expect(b.seen[0].bytes).toBeGreaterThan(0);
    // No client certificate was configured: the listener knows no client.
    expect(b.seen[0].authorized).toBe(false);
    expect(b.seen[0].client).toBeUndefined();
  });

  it('a CA that did not sign the broker certificate is refused', async () => {
    const b = await broker(ca.issue('platform-kafka-kafka-bootstrap', ['localhost']));
    const stranger = createTestCa('someone else');
    const outcome = await connect(b.port, { KAFKA_SSL_CA_FILE: file('other.crt', stranger.cert) });
    expect(outcome).toMatch(/self-signed certificate in certificate chain/);
    expect(b.seen).toEqual([]);
  });

  it('the broker name is still checked against its certificate', async () => {
    const b = await broker(ca.issue('elsewhere', ['kafka.elsewhere.example']));
    const outcome = await connect(b.port, { KAFKA_SSL_CA_FILE: file('ca.crt', ca.cert) });
    expect(outcome).toMatch(/Hostname\/IP does not match certificate's altnames/);
    expect(b.seen.every((s) => s.bytes === 0)).toBe(true);
  });

  it('mutual TLS: the client certificate of a KafkaUser is presented and verifies', async () => {
    const b = await broker(ca.issue('platform-kafka-kafka-bootstrap', ['localhost']));
    const user = ca.issue('platform');
    await connect(b.port, {
      KAFKA_SSL_CA_FILE: file('ca.crt', ca.cert),
      KAFKA_SSL_CERT_FILE: file('user.crt', user.cert),
      KAFKA_SSL_KEY_FILE: file('user.key', user.key),
    });
    expect(b.seen).toHaveLength(1);
    expect(b.seen[0]).toMatchObject({ authorized: true, client: 'platform' });
    expect(b.seen[0].bytes).toBeGreaterThan(0);
  });
});
