import { Query, type QueryConfig, type QueryResult } from 'pg';

/**
 * The part of node-postgres' connection a Submittable writes to: the messages of the extended protocol
 * (what pg-cursor and pg-query-stream, node-postgres' own Submittables, use).
 */
interface ProtocolConnection {
  bind(config: { statement: string; values: readonly unknown[] }): void;
  execute(config: { portal: string }): void;
}

/** What Query leaves to subclasses and its client; not in @types/pg. */
interface QueryInternals {
  prepare(connection: ProtocolConnection): void;
  handleDataRow(msg: unknown): void;
  handleCommandComplete(msg: unknown, connection: ProtocolConnection): void;
}

/**
 * One statement as a tenant, in one round trip and without BEGIN/COMMIT: the tenant setting (a named
 * statement already prepared on the connection) and the statement go out as one extended-protocol batch
 * with a single Sync, which PostgreSQL runs as one implicit transaction, so the setting (transaction-local)
 * holds for the statement and ends with it. Were the setting to fail, PostgreSQL skips the statement
 * (everything up to the Sync) and the query fails with the setting's error. The setting's own row and
 * completion are not part of the result.
 */
export class TenantStatementQuery extends Query {
  private settingDone = false;

  constructor(
    config: QueryConfig,
    private readonly setting: { name: string; values: readonly string[] },
    callback: (err: Error | null, result: QueryResult) => void,
  ) {
    super(config as never, undefined, callback as never);
  }

  /** Bind and Execute of the setting, then the statement exactly as Query sends it (Parse, Bind, Describe, Execute, Sync). */
  prepare(connection: ProtocolConnection): void {
    connection.bind({ statement: this.setting.name, values: this.setting.values });
    connection.execute({ portal: '' });
    (Query.prototype as unknown as QueryInternals).prepare.call(this, connection);
  }

  handleDataRow(msg: unknown): void {
    if (this.settingDone) (Query.prototype as unknown as QueryInternals).handleDataRow.call(this, msg);
  }

  handleCommandComplete(msg: unknown, connection: ProtocolConnection): void {
    if (!this.settingDone) {
      this.settingDone = true;
      return;
    }
    (Query.prototype as unknown as QueryInternals).handleCommandComplete.call(this, msg, connection);
  }

  /** Query sends Parse/Bind only for statements with values or a name; this one always needs the batch. */
  requiresPreparation(): boolean {
    return true;
  }
}
