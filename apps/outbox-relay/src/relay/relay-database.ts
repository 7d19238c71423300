import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Client, Pool } from 'pg';
import { RelayConfig } from '../config/relay.config';

/** The relay's own small pool; it touches only outbox tables, so it needs no ORM. */
@Injectable()
export class RelayDatabase implements OnApplicationShutdown {
  readonly pool: Pool;

  constructor(private readonly cfg: RelayConfig) {
    this.pool = new Pool({
      connectionString: cfg.DATABASE_URL,
      max: cfg.DB_POOL_MAX,
      application_name: `outbox-relay-${cfg.INSTANCE_ID}`,
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
  }

  /** A dedicated connection for LISTEN; pool connections are returned between queries. */
  listener(): Client {
    return new Client({
      connectionString: this.cfg.DATABASE_URL,
      application_name: `outbox-relay-listen-${this.cfg.INSTANCE_ID}`,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
