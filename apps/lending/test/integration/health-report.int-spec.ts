import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import { ServiceHealthReported } from '@platform/messaging';
import {
  TopicCollector,
  createTestDatabase,
  listen,
  serviceEnv,
  type ReceivedMessage,
} from '@platform/testing';
import { createLendingApp } from '../../src/bootstrap';

type Report = { instance: string; status: 'up' | 'down'; checks: Record<string, { status: string }> };

/** The lending app as deployed reports its health; its database going away is a readiness change. */
describe('lending health reports (real PostgreSQL, Kafka-protocol broker)', () => {
  let app: INestApplication;
  let base: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let collector: TopicCollector;
  const instance = `lending-${randomUUID().slice(0, 8)}`;
  const mine = (m: ReceivedMessage) => (m.value as Report).instance === instance;
  const status = (s: 'up' | 'down') => (m: ReceivedMessage) => mine(m) && (m.value as Report).status === s;

  /** Cuts the app off its database: no new connections, existing ones terminated. */
  async function database(allow: boolean): Promise<void> {
    const admin = new Client({ connectionString: process.env.TEST_PG_SERVER_URL });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE "${db.name}" ALLOW_CONNECTIONS ${allow}`);
      if (!allow)
        await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
          [db.name],
        );
    } finally {
      await admin.end();
    }
  }

  beforeAll(async () => {
    db = await createTestDatabase('lending_health');
    collector = await TopicCollector.start([ServiceHealthReported.topic]);
    app = await createLendingApp(
      serviceEnv(db.url, { INSTANCE_ID: instance, HEALTH_HEARTBEAT_MS: '1000', HEALTH_CHECK_MS: '200' }),
      false,
    );
    base = await listen(app);
  });

  afterAll(async () => {
    await database(true).catch(() => undefined);
    await app?.close();
    await collector?.stop();
    await db?.drop();
  });

  it('publishes up at start, down naming the database when it goes away, and up again', async () => {
    const [first] = await collector.waitFor(status('up'));
    expect(first.key).toBe('lending');
    expect(Object.keys((first.value as Report).checks).sort()).toEqual(['broker', 'database']);

    await database(false);
    const [down] = await collector.waitFor(status('down'), 1, 10000);
    expect((down.value as Report).checks.database.status).toBe('down');
    expect((down.value as Report).checks.broker.status).toBe('up');
    // The app keeps answering while its database is gone.
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    expect((await fetch(`${base}/health/ready`)).status).toBe(503);

    const seen = collector.messages.length;
    await database(true);
    await collector.waitFor((m) => status('up')(m) && collector.messages.indexOf(m) >= seen, 1, 10000);
  }, 40000);
});
