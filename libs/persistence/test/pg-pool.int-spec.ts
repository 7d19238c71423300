import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { AppPoolRepository, dataSourceOptions, poolOf } from '../src';

/* poolOf finds the very pool a DataSource made by dataSourceOptions queries through, with no ORM internals. */
const server = () => {
  const url = process.env.TEST_PG_SERVER_URL;
  if (!url) throw new Error('run through scripts/jest/int.config.js');
  return url;
};
const options = (applicationName: string) =>
  dataSourceOptions({
    url: server(),
    schema: 'public',
    entities: [],
    migrations: [],
    poolMax: 3,
    applicationName,
  });

describe('poolOf', () => {
  const made: DataSource[] = [];
  afterAll(() => Promise.all(made.map((ds) => ds.destroy())));

  it("is the DataSource's own pool, one per DataSource, and undefined before it starts", async () => {
    const a = new DataSource(options('pool-of-a'));
    const b = new DataSource(options('pool-of-b'));
    made.push(a, b);
    expect(poolOf(a)).toBeUndefined();
    await Promise.all([a.initialize(), b.initialize()]);
    const pa = poolOf(a) as Pool;
    const pb = poolOf(b) as Pool;
    expect(pa).toBeInstanceOf(Pool);
    expect(pb).toBeInstanceOf(Pool);
    expect(pa).not.toBe(pb);
    // A statement through the DataSource takes a connection of that pool and no other's.
    const before = pb.totalCount;
    await a.query('SELECT 1');
    expect(pa.totalCount).toBeGreaterThanOrEqual(1);
    expect(pb.totalCount).toBe(before);
    const [{ name }] = await pa
      .query(`SELECT current_setting('application_name') AS name`)
      .then((r) => r.rows);
    expect(name).toBe('pool-of-a');
    expect(new AppPoolRepository(a).pool()).toBe(pa);
  });
});
