/**
 * `npm run admin -- <service> <command> [args]`: the services' admin CLIs (create tenants, issue and
 * revoke keys). Uses DATABASE_URL, or the one `npm start` wrote to .local/runtime.json.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ADMIN_CLI_SERVICES } from '@platform/registry';

const ROOT = resolve(__dirname, '../..');
const SERVICES: readonly string[] = ADMIN_CLI_SERVICES;
const [service, ...args] = process.argv.slice(2);

if (!service || !SERVICES.includes(service)) {
  process.stderr.write(
    `usage: npm run admin -- <${SERVICES.join('|')}> <command> [args]\n       npm run admin -- calendar help\n`,
  );
  process.exit(2);
}
const runtime = join(ROOT, '.local', 'runtime.json');
const fromStart = existsSync(runtime)
  ? (JSON.parse(readFileSync(runtime, 'utf8')) as Record<string, string>)
  : {};
const res = spawnSync(
  process.execPath,
  [
    '-r',
    join(ROOT, 'dist/scripts/register-paths.js'),
    join(ROOT, 'dist/apps', service, 'src/cli.js'),
    ...args,
  ],
  { stdio: 'inherit', env: { ...fromStart, ...process.env } },
);
process.exit(res.status ?? 1);
