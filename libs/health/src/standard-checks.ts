import { DataSource } from 'typeorm';
import { BrokerProbe } from '@platform/kafka';
import type { HealthCheckDefinition } from './health.module';

/** `SELECT 1` on the service's own pool. */
export const databaseCheck: HealthCheckDefinition = {
  name: 'database',
  inject: [DataSource],
  useFactory: (ds: DataSource) => async () => {
    await ds.query('SELECT 1');
  },
};

/** One metadata round-trip to the Kafka cluster. */
export const brokerCheck: HealthCheckDefinition = {
  name: 'broker',
  inject: [BrokerProbe],
  useFactory: (probe: BrokerProbe) => () => probe.check(),
};
