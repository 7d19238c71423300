import 'reflect-metadata';
import { Agent, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Controller, Get, Module, Post, type INestApplication } from '@nestjs/common';
import { PlatformI18nModule } from '@platform/i18n';
import { EnvelopeModule, createHttpApp } from './envelope.module';
import { DEFAULT_HTTP_DRAIN, configureHttpDrain, httpDrainOf } from './http-drain';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

@Controller('work')
class WorkController {
  /** A request that takes a while, like an upsert in its transaction. */
  @Post()
  async work() {
    await sleep(40);
    return { done: true };
  }

  @Get('quick')
  quick() {
    return 'quick';
  }

  /** Longer than any drain budget of these tests. */
  @Get('stuck')
  async stuck() {
    await new Promise((r) => setTimeout(r, 10_000).unref());
    return 'late';
  }
}

@Module({ imports: [PlatformI18nModule.forRoot(), EnvelopeModule], controllers: [WorkController] })
class DrainTestModule {}

interface Outcome {
  status?: number;
  body?: string;
  headers?: IncomingHttpHeaders;
  error?: string;
  /** When the request was sent, relative to the shutdown. */
  sentAfterShutdown: boolean;
}

function call(base: string, agent: Agent, method: string, path: string, shutdownAt: () => number) {
  return new Promise<Outcome>((resolve) => {
    const sentAfterShutdown = shutdownAt() > 0;
    const req = request(`${base}${path}`, { method, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, body, headers: res.headers, sentAfterShutdown }));
      res.on('error', (e: NodeJS.ErrnoException) =>
        resolve({ error: e.code ?? e.message, sentAfterShutdown }),
      );
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message, sentAfterShutdown }));
    req.end();
  });
}

describe('HTTP drain on shutdown (libs/envelope http-drain)', () => {
  let app: INestApplication;
  let server: Server;
  let base: string;

  beforeEach(async () => {
    app = await createHttpApp({ module: DrainTestModule }, false);
    await app.listen(0, '127.0.0.1');
    server = app.getHttpServer() as Server;
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    server.closeAllConnections();
    await app.close().catch(() => undefined);
  });

  it('app.close() under a keep-alive load ends within a bound, and every request sent before it got its whole answer', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    let shutdownAt = 0;
    const outcomes: Outcome[] = [];
    let stop = false;
    // Four clients that never pause, as the gateway's agent under load: each one's next request goes
    // out on the kept-alive socket the moment its answer arrives. They stop at the first refusal (the
    // server no longer listens) or after 6 s, which only happens when the close never finishes.
    const loop = async () => {
      const until = Date.now() + 6000;
      while (!stop && Date.now() < until) {
        const o = await call(base, agent, 'POST', '/work', () => shutdownAt);
        outcomes.push(o);
        if (o.error) return;
      }
    };
    const loops = Promise.all([loop(), loop(), loop(), loop()]);
    await sleep(300);
    shutdownAt = Date.now();
    await app.close();
    const closedInMs = Date.now() - shutdownAt;
    stop = true;
    await loops;
    agent.destroy();

    expect(closedInMs).toBeLessThan(1500);
    expect(httpDrainOf(server)).toMatchObject({ forced: false });
    const answered = outcomes.filter((o) => !o.error);
    expect(answered.length).toBeGreaterThan(8);
    for (const o of answered) {
      expect(o.status).toBe(201);
      expect(JSON.parse(o.body as string)).toEqual({
        success: true,
        code: 201,
        error: null,
        value: { done: true },
      });
    }
    // Every request sent before the shutdown was answered in full; what failed was sent afterwards and
    // refused at the connection: a new connection to the closed listener (ECONNREFUSED), or a kept-alive
    // one that the drain's sweep closed as idle while the client was reusing it (ECONNRESET: the race
    // every HTTP/1.1 client must retry, RFC 9112 9.3.1; a busy machine widens it). Nothing else.
    expect(outcomes.filter((o) => o.error && !o.sentAfterShutdown)).toEqual([]);
    expect(outcomes.filter((o) => o.error && !['ECONNREFUSED', 'ECONNRESET'].includes(o.error))).toEqual([]);
    // Answers to requests that arrived once the shutdown had begun told the client to hang up.
    const late = answered.filter((o) => o.sentAfterShutdown);
    expect(late.length).toBeGreaterThan(0);
    for (const o of late) expect(o.headers?.connection).toBe('close');
  });

  it('a kept-alive connection the client leaves unused is closed by the first sweep, one period after the shutdown began', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await call(base, agent, 'GET', '/work/quick', () => 0);
    expect(first.headers?.connection).toBe('keep-alive');
    const [socket] = Object.values(agent.freeSockets).flat() as Socket[];
    expect(socket).toBeDefined();
    const closed = new Promise<number>((r) => socket.once('close', () => r(Date.now())));
    const started = Date.now();
    const closing = app.close();
    const after = (await closed) - started;
    expect(after).toBeGreaterThanOrEqual(DEFAULT_HTTP_DRAIN.sweepMs - 20);
    expect(after).toBeLessThan(DEFAULT_HTTP_DRAIN.sweepMs + 1000);
    await closing;
    agent.destroy();
  });

  it('a request still running when the budget ends is cut, so the close never waits past it', async () => {
    configureHttpDrain(server, { budgetMs: 300 });
    const agent = new Agent({ keepAlive: true });
    const stuck = call(base, agent, 'GET', '/work/stuck', () => 0);
    await sleep(50);
    const started = Date.now();
    await app.close();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(1500);
    expect(httpDrainOf(server)).toMatchObject({ forced: true });
    expect((await stuck).error).toBe('ECONNRESET');
    agent.destroy();
  });
});
