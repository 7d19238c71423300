import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KafkaMockCluster, startEmbeddedPostgres } from '@platform/dev-infra';
import { CONTRACTS, DEAD_LETTER_TOPIC } from '@platform/messaging';

/**
 * Jest globalSetup: one real PostgreSQL server and one Kafka wire-protocol broker (librdkafka's mock
 * cluster) per test run. Workers inherit the addresses through the environment. `TEST_DATABASE_URL`
 * and `TEST_KAFKA_BROKERS` switch to external servers (e.g. CI with real Kafka).
 */
export default async function globalSetup(): Promise<void> {
  const state = globalThis as unknown as Record<string, unknown>;
  if (process.env.TEST_DATABASE_URL) {
    process.env.TEST_PG_SERVER_URL = process.env.TEST_DATABASE_URL;
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'platform-test-pg-'));
    const pg = await startEmbeddedPostgres({
      dataDir,
      persistent: false,
      // A throw-away cluster: durability settings off make every test file's migrations fast.
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '400' },
    });
    state.__platformPg = pg;
    process.env.TEST_PG_SERVER_URL = pg.url;
  }
  if (process.env.TEST_KAFKA_BROKERS) {
    process.env.KAFKA_BROKERS = process.env.TEST_KAFKA_BROKERS;
  } else {
    const cluster = KafkaMockCluster.start(1);
    for (const topic of [...CONTRACTS.keys(), DEAD_LETTER_TOPIC]) cluster.createTopic(topic, 3);
    state.__platformKafka = cluster;
    process.env.KAFKA_BROKERS = cluster.brokers;
  }
}
