import 'reflect-metadata';
import { Module, type DynamicModule, type INestApplicationContext, type Provider } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { TypedConfigModule, type DataServiceConfig } from '@platform/config';
import { PersistenceModule, migrationsAppliedAtStart, type ServiceDatabase } from './persistence.module';

export interface AdminCommand<C = DataServiceConfig> {
  usage: string;
  /** Runs against the service's own providers (services, not the database). */
  run: (app: INestApplicationContext, args: string[], cfg: C) => Promise<unknown>;
}

export interface AdminCliOptions<C extends DataServiceConfig> {
  service: string;
  config: new () => C;
  database: ServiceDatabase;
  /** Modules and providers the commands need (the tenancy module, a grants service...). */
  imports?: DynamicModule[];
  providers?: Provider[];
  commands: Record<string, AdminCommand<C>>;
  argv?: string[];
}

@Module({})
class AdminCliModule {}

/**
 * The admin CLI of a service: boots the service's persistence and the providers the commands need
 * (no HTTP, no broker), migrates the schema, runs one command and prints JSON. Used by ops
 * (`npm run admin -- <service> <command>`) and by the development seed.
 */
export async function runAdminCli<C extends DataServiceConfig>(opts: AdminCliOptions<C>): Promise<void> {
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
  let app: INestApplicationContext | undefined;
  try {
    app = await NestFactory.createApplicationContext(
      {
        module: AdminCliModule,
        imports: [
          TypedConfigModule.forRoot(opts.config),
          PersistenceModule.forService(opts.config, opts.database, {
            name: `${opts.service}-admin`,
            poolMax: 2,
          }),
          ...(opts.imports ?? []),
        ],
        providers: opts.providers ?? [],
      },
      { logger: false, abortOnError: false },
    );
    const result =
      cmd === 'migrate'
        ? { applied: migrationsAppliedAtStart(app.get(DataSource)) }
        : await command.run(app, args, app.get(opts.config));
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  } finally {
    await app?.close();
  }
}
