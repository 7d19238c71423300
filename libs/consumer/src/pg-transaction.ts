import type { Pool, PoolClient } from 'pg';
import type { TransactionRunnerOf } from './consumer.options';

/** A transaction runner over a node-postgres pool, for services that have no ORM. */
export function poolTransaction(pool: Pool): TransactionRunnerOf<PoolClient> {
  return async (work) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw err;
    } finally {
      // A connection that could not even roll back is destroyed, not handed to the next caller.
      client.release(broken);
    }
  };
}
