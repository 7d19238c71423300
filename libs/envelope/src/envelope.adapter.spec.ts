import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Controller, Get, Header, Module, Post, Res, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Response } from 'express';
import { of } from 'rxjs';
import { PlatformI18nModule } from '@platform/i18n';
import { CommonError, commonError } from './common-errors';
import { ok } from './envelope';
import { RawResponse } from './envelope.interceptor';
import { EnvelopeModule, createHttpApp } from './envelope.module';

@Controller('t')
class EnvelopedController {
  @Get('value')
  value() {
    return { a: 1 };
  }

  @Get('nothing')
  nothing(): void {
    // answers `value: null`
  }

  @Get('envelope')
  envelope() {
    return ok('already', 203);
  }

  @Get('observable')
  observable() {
    return of(1, 2, 3);
  }

  @Post('passthrough')
  passthrough(@Res({ passthrough: true }) res: Response) {
    res.status(202);
    return 'accepted';
  }

  @Get('fails')
  fails() {
    throw commonError(CommonError.FORBIDDEN);
  }

  // A cacheable route (Nest sets @Header before the handler runs, so its refusal carries it too).
  @Get('cached-fails')
  @Header('Cache-Control', 'public, max-age=60')
  @Header('Vary', 'Origin')
  cachedFails() {
    throw commonError(CommonError.FORBIDDEN);
  }

  @RawResponse()
  @Get('raw')
  @Header('content-type', 'text/plain')
  raw() {
    return 'plain text';
  }
}

@RawResponse()
@Controller('raw-class')
class RawController {
  @Get()
  @Header('content-type', 'text/plain')
  index() {
    return 'raw too';
  }
}

const appModule = {
  module: class EnvelopeSpecModule {},
  imports: [PlatformI18nModule.forRoot(), EnvelopeModule],
  controllers: [EnvelopedController, RawController],
};

describe('the envelope, put on by the adapter', () => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    app = await createHttpApp(appModule, false);
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  const get = async (path: string, init?: RequestInit) => {
    const res = await fetch(`${base}${path}`, init);
    return { status: res.status, headers: res.headers, text: await res.text() };
  };

  it('wraps what a handler returns, with the status as code', async () => {
    const res = await get('/t/value');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ success: true, code: 200, error: null, value: { a: 1 } });
  });

  it('answers null for a handler that returns nothing, and leaves an envelope as it is', async () => {
    expect(JSON.parse((await get('/t/nothing')).text)).toEqual(ok(null));
    expect(JSON.parse((await get('/t/envelope')).text)).toEqual(ok('already', 203));
  });

  it('wraps the last value of an observable', async () => {
    expect(JSON.parse((await get('/t/observable')).text)).toEqual(ok(3));
  });

  it('takes the status a handler set on a passthrough response', async () => {
    const res = await get('/t/passthrough', { method: 'POST' });
    expect(res.status).toBe(202);
    expect(JSON.parse(res.text)).toEqual(ok('accepted', 202));
  });

  it('leaves errors to the filter: localised, with the request id', async () => {
    const res = await get('/t/fails', { headers: { 'language-code': 'ru', 'x-request-id': 'req-1' } });
    expect(res.status).toBe(403);
    const body = JSON.parse(res.text) as { success: boolean; error: string; value: Record<string, unknown> };
    expect(body).toMatchObject({
      success: false,
      code: 403,
      value: { reason: 'FORBIDDEN', requestId: 'req-1' },
    });
    expect(body.error).toMatch(/[а-я]/);
    expect(res.headers.get('x-request-id')).toBe('req-1');
  });

  it('varies every error on the language headers, kept with a Vary the route set, on a cacheable route too', async () => {
    for (const path of ['/t/fails', '/t/cached-fails']) {
      const [ru, es] = await Promise.all(
        ['ru', 'es'].map((l) => get(path, { headers: { 'language-code': l } })),
      );
      expect(JSON.parse(ru.text).error).not.toBe(JSON.parse(es.text).error);
      const vary = String(ru.headers.get('vary')).split(/\s*,\s*/);
      expect(vary).toEqual(expect.arrayContaining(['Language-Code', 'Accept-Language']));
      if (path === '/t/cached-fails') {
        expect(vary).toContain('Origin');
        expect(ru.headers.get('cache-control')).toBe('public, max-age=60');
      }
    }
  });

  it('sends what a @RawResponse() route returns as it is, on a handler or a whole controller', async () => {
    expect(await get('/t/raw')).toMatchObject({ status: 200, text: 'plain text' });
    expect(await get('/raw-class')).toMatchObject({ status: 200, text: 'raw too' });
  });

  it('does not say which framework answers', async () => {
    expect((await get('/t/value')).headers.get('x-powered-by')).toBeNull();
  });
});

describe('EnvelopeModule', () => {
  it('refuses to start on an adapter that would answer without the envelope', async () => {
    @Module({ imports: [PlatformI18nModule.forRoot(), EnvelopeModule] })
    class PlainAdapterModule {}
    const app = await NestFactory.create(PlainAdapterModule, { logger: false, abortOnError: false });
    await expect(app.init()).rejects.toThrow('EnvelopeModule needs the EnvelopeExpressAdapter');
    await app.close().catch(() => undefined);
  });
});
