import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig, type DataServiceConfig } from '@platform/config';
import { dataSourceOptions, type ServiceDatabaseOptions } from './persistence.module';
import { migrateSchema } from './migrate';

export interface AdminCommand<C> {
  usage: string;
  run: (ds: DataSource, args: string[], cfg: C) => Promise<unknown>;
}

/**
 * The admin CLI of a service: migrates its schema, then runs one command and prints JSON. Used by ops
 * (`npm run admin -- <service> <command>`) and by the development seed.
 */
export async function runAdminCli<C extends DataServiceConfig>(opts: {
  service: string;
  config: new () => C;
  entities: ServiceDatabaseOptions['entities'];
  migrations: ServiceDatabaseOptions['migrations'];
  commands: Record<string, AdminCommand<C>>;
  argv?: string[];
}): Promise<void> {
  const [cmd, ...args] = opts.argv ?? process.argv.slice(2);
  const usage = `${opts.service} admin commands (output is JSON):\n  migrate\n${Object.entries(opts.commands)
    .map(([name, c]) => `  ${name} ${c.usage}`)
    .join('\n')}\n`;
  if (!cmd || cmd === 'help') {
    process.stdout.write(usage);
    return;
  }
  const command = opts.commands[cmd];
  if (cmd !== 'migrate' && !command) {
    process.stderr.write(`unknown command ${cmd}\n${usage}`);
    process.exitCode = 2;
    return;
  }
  const cfg = loadConfig(opts.config);
  const ds = new DataSource(
    dataSourceOptions({
      url: cfg.DATABASE_URL,
      schema: cfg.DB_SCHEMA,
      poolMax: 2,
      applicationName: `${opts.service}-admin`,
      entities: opts.entities,
      migrations: opts.migrations,
    }),
  );
  await ds.initialize();
  try {
    const applied = await migrateSchema(ds);
    const result = cmd === 'migrate' ? { applied } : await command.run(ds, args, cfg);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  } finally {
    await ds.destroy();
  }
}
