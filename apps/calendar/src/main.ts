import { Logger } from '@nestjs/common';
import { createCalendarApp } from './bootstrap';
import { CalendarConfig } from './config/calendar.config';

async function main(): Promise<void> {
  const app = await createCalendarApp();
  const cfg = app.get(CalendarConfig);
  await app.listen(cfg.PORT, cfg.HOST);
  Logger.log(`calendar listening on ${cfg.HOST}:${cfg.PORT}`, 'Bootstrap');
}

main().catch((err: unknown) => {
  Logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err), 'Bootstrap');
  process.exit(1);
});
