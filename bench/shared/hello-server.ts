/**
 * The two reference servers of the benches, each run as its own process:
 *   node dist/bench/shared/hello-server.js node|nest <port>
 * `node`: a bare Node `http` hello-world. `nest`: a plain Nest 12 + express hello-world, one controller,
 * nothing else (no pipes, guards, interceptors, middleware, logger): the cost of Nest itself.
 *   node dist/bench/shared/hello-server.js node-pg <port> <databaseUrl> <accountId> <from> <to>
 * `node-pg`: the database-bound ceiling of the calendar's week query: bare Node `http` and a `pg` pool
 * (the calendar's pool size) running the calendar's own statement (`searchStatements`, the product
 * view) and answering its rows as JSON: what any server pays for one PostgreSQL round trip here.
 * Prints `ready` once listening.
 */
import { createServer } from 'node:http';
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Pool } from 'pg';
import { searchStatements } from '../../apps/calendar/src/events/event-read.repository';
import type { AccountId } from '../../apps/calendar/src/tenancy/tenant-ids';

@Controller()
class HelloController {
  @Get()
  hello(): string {
    return 'hello world';
  }
}

@Module({ controllers: [HelloController] })
class HelloModule {}

function nodePg(port: number, [databaseUrl, accountId, from, to]: string[]): void {
  const pool = new Pool({ connectionString: databaseUrl, max: 10, options: '-c search_path=calendar' });
  const { page } = searchStatements(accountId as AccountId, {
    audience: {},
    range: { from: new Date(from), to: new Date(to) },
    excludeCancelled: false,
    readable: { kind: 'all' },
    sort: { by: 'start', direction: 'ASC' },
    offset: 0,
    limit: 50,
  });
  createServer((_req, res) => {
    pool.query(page.sql, page.params).then(
      ({ rows }) => {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            success: true,
            code: 200,
            error: null,
            value: { items: rows, total: rows.length },
          }),
        );
      },
      (err: Error) => {
        res.statusCode = 500;
        res.end(err.message);
      },
    );
  }).listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
}

async function main(kind: string, port: number, rest: string[]): Promise<void> {
  if (kind === 'node-pg') return nodePg(port, rest);
  if (kind === 'node') {
    createServer((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end('hello world');
    }).listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
    return;
  }
  if (kind !== 'nest') throw new Error(`usage: hello-server.js node|nest|node-pg <port> [...] (got ${kind})`);
  const app = await NestFactory.create(HelloModule, { logger: false });
  await app.listen(port, '127.0.0.1');
  process.stdout.write('ready\n');
}

main(process.argv[2], Number(process.argv[3]), process.argv.slice(4)).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
