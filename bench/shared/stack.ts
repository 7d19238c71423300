import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KafkaMockCluster, startEmbeddedPostgres } from '@platform/dev-infra';
import { CONTRACTS, DEAD_LETTER_TOPIC } from '@platform/messaging';
import { RUNTIME_NODE_OPTIONS } from '@platform/registry';

/**
 * The embedded stack a bench runs the built apps on: a throwaway PostgreSQL with one database, the
 * librdkafka mock broker with every contract's topic, and the environment the apps start with (the
 * runtime's Node options, as deployed).
 */
export async function startBenchStack(name: string): Promise<{
  env: Record<string, string>;
  stop(): Promise<void>;
}> {
  const pg = await startEmbeddedPostgres({
    dataDir: mkdtempSync(join(tmpdir(), `bench-${name}-`)),
    persistent: false,
  });
  const databaseUrl = await pg.createDatabase('bench');
  const cluster = KafkaMockCluster.start(1);
  for (const t of [...CONTRACTS.keys(), DEAD_LETTER_TOPIC]) cluster.createTopic(t, 3);
  return {
    env: {
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS: cluster.brokers,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      NODE_OPTIONS: RUNTIME_NODE_OPTIONS,
    },
    stop: () => pg.stop(),
  };
}
