import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KafkaMockCluster, startEmbeddedPostgres, type RunningPostgres } from '@platform/dev-infra';
import { CONTRACTS, DEAD_LETTER_TOPIC } from '@platform/messaging';
import { RUNTIME_NODE_OPTIONS } from '@platform/registry';

/**
 * The embedded stack a bench runs the built apps on: a throwaway PostgreSQL with one database, the
 * librdkafka mock broker with every contract's topic, and the environment the apps start with (the
 * runtime's Node options, as deployed).
 *
 * `statements`: pg_stat_statements is loaded (its library ships with the embedded binaries) but
 * tracks nothing until a database asks for it (`ALTER DATABASE ... SET pg_stat_statements.track`), so
 * the timed figures pay only its idle hook.
 */
export async function startBenchStack(
  name: string,
  opts: { statements?: boolean } = {},
): Promise<{
  env: Record<string, string>;
  /** The embedded server: its port, the superuser URL of its `postgres` database, more databases. */
  pg: RunningPostgres;
  stop(): Promise<void>;
}> {
  const pg = await startEmbeddedPostgres({
    dataDir: mkdtempSync(join(tmpdir(), `bench-${name}-`)),
    persistent: false,
    settings: opts.statements
      ? { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'none' }
      : undefined,
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
    pg,
    stop: () => pg.stop(),
  };
}
