import { Logger } from '@nestjs/common';
import { createRelayApp } from './bootstrap';
import { RelayConfig } from './config/relay.config';

async function main(): Promise<void> {
  const app = await createRelayApp();
  const cfg = app.get(RelayConfig);
  await app.listen(cfg.PORT, cfg.HOST);
  Logger.log(`outbox-relay listening on ${cfg.HOST}:${cfg.PORT}, draining ${cfg.RELAY_SCHEMAS}`, 'Bootstrap');
}

main().catch((err: unknown) => {
  Logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err), 'Bootstrap');
  process.exit(1);
});
