import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '@platform/config';
import { dataSourceOptions, migrateSchema } from '@platform/persistence';
import { CALENDAR_ENTITIES } from './app.module';
import { CalendarConfig } from './config/calendar.config';
import { CALENDAR_MIGRATIONS } from './migrations';
import { ProductKey } from './tenancy/product-key.entity';
import { ensureAccount, ensureProduct, issueProductKey, revokeProductKey } from './tenancy/tenancy.admin';

const USAGE = `calendar admin commands (output is JSON):
  migrate
  create-account <id> <name>
  create-product <id> <name>
  issue-key <productId> [label]        prints the key once
  revoke-key <keyId>
  seed-demo                            development only: demo account, product and key`;

export const DEMO = { accountId: 'demo', productId: 'demo-crm' };

async function run(cmd: string, args: string[], cfg: CalendarConfig, ds: DataSource): Promise<unknown> {
  switch (cmd) {
    case 'migrate':
      return { applied: await migrateSchema(ds) };
    case 'create-account':
      return ensureAccount(ds, args[0], args[1] ?? args[0]);
    case 'create-product':
      return ensureProduct(ds, args[0], args[1] ?? args[0]);
    case 'issue-key':
      return issueProductKey(ds, args[0], args[1] ?? 'issued by admin CLI');
    case 'revoke-key':
      return { revoked: await revokeProductKey(ds, args[0]) };
    case 'seed-demo': {
      if (cfg.NODE_ENV === 'production') throw new Error('seed-demo refuses to run in production');
      await ensureAccount(ds, DEMO.accountId, 'Demo company');
      await ensureProduct(ds, DEMO.productId, 'Demo CRM');
      // A re-seed replaces the demo key: the old token was shown once and cannot be recovered.
      await ds.getRepository(ProductKey).update({ productId: DEMO.productId, label: 'demo seed' }, { revokedAt: new Date() });
      const key = await issueProductKey(ds, DEMO.productId, 'demo seed', false);
      return { ...DEMO, apiKey: key.token, keyId: key.keyId };
    }
    default:
      throw new Error(`unknown command ${cmd}\n${USAGE}`);
  }
}

async function main(): Promise<void> {
  const [cmd, ...args] = process.argv.slice(2);
  if (!cmd || cmd === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const cfg = loadConfig(CalendarConfig);
  const ds = new DataSource(
    dataSourceOptions({
      url: cfg.DATABASE_URL,
      schema: cfg.DB_SCHEMA,
      poolMax: 2,
      applicationName: 'calendar-admin',
      entities: CALENDAR_ENTITIES,
      migrations: CALENDAR_MIGRATIONS,
    }),
  );
  await ds.initialize();
  try {
    if (cmd !== 'migrate') await migrateSchema(ds);
    process.stdout.write(`${JSON.stringify(await run(cmd, args, cfg, ds), null, 2)}\n`);
  } finally {
    await ds.destroy();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
