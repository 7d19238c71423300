/**
 * The two reference servers of the benches, each run as its own process:
 *   node dist/bench/shared/hello-server.js node|nest <port>
 * `node`: a bare Node `http` hello-world. `nest`: a plain Nest 11 + express hello-world, one controller,
 * nothing else (no pipes, guards, interceptors, middleware, logger): the cost of Nest itself.
 * Prints `ready` once listening.
 */
import { createServer } from 'node:http';
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

@Controller()
class HelloController {
  @Get()
  hello(): string {
    return 'hello world';
  }
}

@Module({ controllers: [HelloController] })
class HelloModule {}

async function main(kind: string, port: number): Promise<void> {
  if (kind === 'node') {
    createServer((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end('hello world');
    }).listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
    return;
  }
  if (kind !== 'nest') throw new Error(`usage: hello-server.js node|nest <port> (got ${kind})`);
  const app = await NestFactory.create(HelloModule, { logger: false });
  await app.listen(port, '127.0.0.1');
  process.stdout.write('ready\n');
}

main(process.argv[2], Number(process.argv[3])).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
