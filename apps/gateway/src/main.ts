import { Logger } from '@nestjs/common';
import { createGatewayApp } from './bootstrap';
import { GatewayConfig } from './config/gateway.config';

async function main(): Promise<void> {
  const app = await createGatewayApp();
  const cfg = app.get(GatewayConfig);
  await app.listen(cfg.PORT, cfg.HOST);
  Logger.log(`gateway listening on ${cfg.HOST}:${cfg.PORT}`, 'Bootstrap');
}

main().catch((err: unknown) => {
  Logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err), 'Bootstrap');
  process.exit(1);
});
