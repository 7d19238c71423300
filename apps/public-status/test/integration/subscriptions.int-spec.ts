import { verifyWebhookSignature } from '@platform/webhooks';
import { simpleParser, type ParsedMail } from 'mailparser';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { rawRequest, request } from '@platform/testing';
import { startStatus, type StatusFixture } from './status-fixture';

/** A local SMTP server in the test process; every mail parsed. */
async function startSmtp(): Promise<{ server: SMTPServer; port: number; mails: ParsedMail[] }> {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((m) => {
          mails.push(m);
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { server, port, mails };
}

/** A loopback webhook receiver (allowed by WEBHOOKS_ALLOW_PRIVATE_TARGETS=loopback only). */
async function startReceiver() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, received, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

async function until<T>(what: string, probe: () => T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const settle = (ms = 1500) => new Promise((r) => setTimeout(r, ms));
/** The raw header value (mailparser folds List-* headers into a structure; the raw line is what clients read). */
const header = (m: ParsedMail, name: string) => {
  const line = m.headerLines.find((h) => h.key === name.toLowerCase())?.line ?? '';
  return line
    .slice(line.indexOf(':') + 1)
    .replace(/\r?\n\s+/g, ' ')
    .trim();
};
const tokenIn = (text: string, path: string) =>
  decodeURIComponent(new RegExp(`/PublicStatus/${path}\\?token=([^\\s>]+)`).exec(text)?.[1] ?? '');

describe('public-status subscriptions: double opt-in mail, one-click unsubscribe, webhooks (real PostgreSQL, local SMTP)', () => {
  let s: StatusFixture;
  let mgr: Record<string, string>;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let hook: Awaited<ReturnType<typeof startReceiver>>;
  const mailsTo = (to: string) => smtp.mails.filter((m) => m.to && JSON.stringify(m.to).includes(to));
  const subscribe = (body: unknown, headers?: Record<string, string>) =>
    request<{ success: boolean; value: Record<string, unknown> & { reason?: string } }>(
      `${s.base}/PublicStatus/Subscribe`,
      { method: 'POST', body, headers },
    );

  beforeAll(async () => {
    smtp = await startSmtp();
    hook = await startReceiver();
    s = await startStatus('ps_subscriptions', {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_WORKER_INTERVAL_MS: '100',
      WEBHOOKS_WORKER_INTERVAL_MS: '100',
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'loopback',
      PUBLIC_STATUS_URL: 'https://status.example.com',
      MONITORING_TICK_MS: '0',
    });
    mgr = await s.business('acme');
    await s.manage(mgr, 'PUT', '/business', { name: 'Acme', published: true });
    await s.manage(mgr, 'PUT', '/products/api', { name: 'API', published: true });
    await s.manage(mgr, 'PUT', '/products/api/resources/db', { name: 'Database', published: true });
    await s.manage(mgr, 'PUT', '/products/hidden', { name: 'Project Nightingale', published: false });
    await s.manage(mgr, 'PUT', '/products/hidden/resources/core', {
      name: 'Nightingale Core',
      published: true,
    });
  });

  afterAll(async () => {
    await s?.close();
    await new Promise<void>((r) => (smtp ? smtp.server.close(() => r()) : r()));
    hook?.server.close();
  });

  it('email: confirmation mail -> confirm -> an incident mails with List-Unsubscribe -> one-click -> nothing more', async () => {
    const first = await subscribe({ business: 'acme', email: 'Ops@Example.com', products: ['api'] });
    expect(first.status).toBe(202);
    expect(first.body.value).toEqual({ kind: 'email', status: 'confirmation_pending' });
    const confirmMail = await until('the confirmation mail', () => mailsTo('ops@example.com')[0]);
    expect(confirmMail.subject).toContain('Confirm your subscription');
    expect(header(confirmMail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const confirmToken = tokenIn(confirmMail.text ?? '', 'Subscribe/confirm');
    expect(confirmToken).toMatch(/^c\.sub_/);

    // Nothing is sent before confirmation.
    const early = await s.manage<{ id: string }>(mgr, 'POST', '/incidents', {
      name: 'Before confirm',
      impact: 'minor',
      body: 'x',
      components: ['api/db'],
    });
    await s.manage(mgr, 'POST', `/incidents/${early.body.value.id}/resolve`, {});
    await settle(600);
    expect(mailsTo('ops@example.com')).toHaveLength(1);

    expect((await s.get(`Subscribe/confirm?token=${encodeURIComponent(confirmToken)}`)).body.value).toEqual({
      status: 'confirmed',
    });
    // Single use.
    const again = await s.get(`Subscribe/confirm?token=${encodeURIComponent(confirmToken)}`);
    expect(again.status).toBe(400);
    expect(again.body.value.reason).toBe('PUBLIC_STATUS_SUBSCRIPTION_TOKEN_INVALID');

    const inc = await s.manage<{ id: string }>(mgr, 'POST', '/incidents', {
      name: 'Database degraded',
      impact: 'major',
      body: 'Investigating slow queries',
      components: ['api/db', 'hidden/core'],
    });
    const note = await until('the incident mail', () =>
      mailsTo('ops@example.com').find((m) => m.subject?.includes('Database degraded')),
    );
    expect(note.text).toContain('Investigating slow queries');
    expect(note.text).toContain('Affected: api/db');
    expect(note.text).not.toMatch(/hidden|Nightingale/);
    const listUnsubscribe = header(note, 'List-Unsubscribe');
    expect(listUnsubscribe).toMatch(
      /^<https:\/\/status\.example\.com\/PublicStatus\/Unsubscribe\?token=u\.sub_/,
    );
    expect(header(note, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    // RFC 8058: the mail client POSTs `List-Unsubscribe=One-Click` to the header's URL.
    const url = listUnsubscribe.slice(1, -1).replace('https://status.example.com', s.base);
    const click = await rawRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(click.status).toBe(200);
    const count = mailsTo('ops@example.com').length;
    await s.manage(mgr, 'POST', `/incidents/${inc.body.value.id}/updates`, {
      status: 'identified',
      body: 'Found the cause',
    });
    await settle();
    expect(mailsTo('ops@example.com')).toHaveLength(count);
  });

  it('answers the same for a known, pending or new address and mails no more than one confirmation per interval', async () => {
    const a = await subscribe({ business: 'acme', email: 'new@example.com' });
    const b = await subscribe({ business: 'acme', email: 'new@example.com' });
    const c = await subscribe({ business: 'acme', email: 'other@example.com' });
    for (const r of [a, b, c]) {
      expect(r.status).toBe(202);
      expect(r.body).toEqual(a.body);
    }
    await until('the confirmation', () => mailsTo('new@example.com')[0]);
    await settle(500);
    expect(mailsTo('new@example.com')).toHaveLength(1);
  });

  it('webhook: the secret once, a signed delivery verifiable with verifyWebhookSignature; unpublished things never sent', async () => {
    const sub = await subscribe({ business: 'acme', webhook: hook.url });
    expect(sub.status).toBe(201);
    const secret = String(sub.body.value.secret);
    expect(secret).toMatch(/^whsec_/);
    expect(JSON.stringify(sub.body)).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);

    // An incident on the unpublished product only: not public, so no webhook (and no mail).
    await s.manage(mgr, 'POST', '/incidents', {
      name: 'Nightingale meltdown',
      impact: 'critical',
      body: 'secret stuff',
      components: ['hidden/core'],
    });
    await s.manage(mgr, 'POST', '/incidents', {
      name: 'Public blip',
      impact: 'minor',
      body: 'A short blip',
      components: ['api/db'],
    });
    const got = await until('the webhook', () => hook.received.find((r) => r.body.includes('Public blip')));
    const verdict = verifyWebhookSignature([secret], got.headers as Record<string, string>, got.body);
    expect(verdict).toMatchObject({ ok: true });
    expect(got.headers['x-service-event']).toBe('incident.created');
    await settle(500);
    const all =
      JSON.stringify(hook.received.map((r) => r.body)) +
      JSON.stringify(smtp.mails.map((m) => [m.subject, m.text]));
    for (const leak of ['Nightingale', 'hidden', 'secret stuff']) expect(all).not.toContain(leak);

    // The unsubscribe token returned once removes the webhook.
    const out = await rawRequest(
      `${s.base}/PublicStatus/Unsubscribe?token=${encodeURIComponent(String(sub.body.value.unsubscribeToken))}`,
      { method: 'POST' },
    );
    expect(out.status).toBe(200);
  });

  it("mails in each subscriber's language (Language-Code at subscribe time, the platform's fallbacks); staff text as written", async () => {
    const who = {
      ru: { email: 'ru@example.com', headers: { 'Language-Code': 'ru' } },
      tr: { email: 'tr@example.com', headers: { 'Language-Code': 'tr-TR' } },
      none: { email: 'plain@example.com', headers: {} },
      unsupported: { email: 'fr@example.com', headers: { 'Language-Code': 'fr' } },
      // An unsupported Language-Code falls through to Accept-Language, as everywhere on the platform.
      accept: {
        email: 'es@example.com',
        headers: { 'Language-Code': 'de', 'Accept-Language': 'fr;q=0.9, es-ES;q=0.8' },
      },
    };
    for (const w of Object.values(who))
      expect(
        (await subscribe({ business: 'acme', email: w.email, products: ['api'] }, w.headers)).status,
      ).toBe(202);
    const confirmations = Object.fromEntries(
      await Promise.all(
        Object.entries(who).map(
          async ([k, w]) => [k, await until(`${k}'s confirmation`, () => mailsTo(w.email)[0])] as const,
        ),
      ),
    );
    expect(confirmations.ru.subject).toBe('Подтвердите подписку: Acme');
    expect(confirmations.ru.text).toContain(
      'Подтвердите в течение 48 ч.: https://status.example.com/PublicStatus/Subscribe/confirm?token=',
    );
    expect(confirmations.ru.text).toContain(
      'Отписаться: https://status.example.com/PublicStatus/Unsubscribe?token=',
    );
    expect(confirmations.tr.subject).toBe('Aboneliğinizi onaylayın: Acme');
    expect(confirmations.accept.subject).toBe('Confirme su suscripción: Acme');
    for (const k of ['none', 'unsupported'] as const) {
      expect(confirmations[k].subject).toBe('Confirm your subscription: Acme');
      expect(confirmations[k].text).toContain('Confirm within 48 hours: ');
    }
    for (const m of Object.values(confirmations)) {
      // RFC 8058 headers are the same in every language.
      expect(header(m, 'List-Unsubscribe')).toMatch(
        /^<https:\/\/status\.example\.com\/PublicStatus\/Unsubscribe\?token=u\.sub_/,
      );
      expect(header(m, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      const token = tokenIn(m.text ?? '', 'Subscribe/confirm');
      expect((await s.get(`Subscribe/confirm?token=${encodeURIComponent(token)}`)).body.value).toEqual({
        status: 'confirmed',
      });
    }
    // A confirmed subscriber's language is not changed by an anonymous request.
    expect(
      (await subscribe({ business: 'acme', email: who.ru.email }, { 'Language-Code': 'en' })).status,
    ).toBe(202);

    // Staff text with braces and i18n syntax reaches every mail as written.
    const name = 'Payments {queue} delayed';
    const body = 'Looking into $t(mail.unsubscribe) and {{count}} retries';
    const inc = await s.manage<{ id: string }>(mgr, 'POST', '/incidents', {
      name,
      impact: 'major',
      body,
      components: ['api/db'],
    });
    const incidentMail = (to: string, subject: string) =>
      until(`${to}: ${subject}`, () => mailsTo(to).find((m) => m.subject === subject));
    const ru = await incidentMail(who.ru.email, `[Acme] ${name}: расследуется`);
    expect(ru.text).toContain(
      `${name}\nСтатус: расследуется (влияние: серьёзное)\nЗатронутые компоненты: api/db\n\n${body}\n`,
    );
    expect(ru.text).toContain(
      '\n--\nОтписаться: https://status.example.com/PublicStatus/Unsubscribe?token=u.sub_',
    );
    expect(header(ru, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const tr = await incidentMail(who.tr.email, `[Acme] ${name}: inceleniyor`);
    expect(tr.text).toContain(`Durum: inceleniyor (etki: yüksek)\nEtkilenen bileşenler: api/db\n\n${body}\n`);
    expect(tr.text).toContain('Abonelikten çık: https://status.example.com/');
    const es = await incidentMail(who.accept.email, `[Acme] ${name}: investigando`);
    expect(es.text).toContain('Estado: investigando (impacto: mayor)');
    for (const k of ['none', 'unsupported'] as const) {
      const en = await incidentMail(who[k].email, `[Acme] ${name}: investigating`);
      expect(en.text).toContain(`Status: investigating (impact: major)\nAffected: api/db\n\n${body}\n`);
      expect(en.text).toContain('\n--\nUnsubscribe: https://status.example.com/');
    }

    await s.manage(mgr, 'POST', `/incidents/${inc.body.value.id}/resolve`, { body: 'Fixed' });
    expect((await incidentMail(who.ru.email, `[Acme] ${name}: решён`)).text).toContain('Статус: решён');
    await s.manage(mgr, 'POST', '/maintenances', {
      name: 'Database upgrade',
      body: 'Writes pause for up to 10 minutes.',
      scheduledFor: '2099-12-01T02:00:00Z',
      scheduledUntil: '2099-12-01T03:00:00Z',
      components: ['api/db'],
    });
    const mnt = await incidentMail(
      who.ru.email,
      '[Acme] Запланировано техническое обслуживание: Database upgrade',
    );
    expect(mnt.text).toContain(
      'Запланировано техническое обслуживание (окно: 2099-12-01T02:00:00.000Z - 2099-12-01T03:00:00.000Z UTC)',
    );
    await incidentMail(who.tr.email, '[Acme] Bakım planlandı: Database upgrade');
    await incidentMail(who.none.email, '[Acme] Maintenance scheduled: Database upgrade');
  });

  it('refuses private webhook targets and hostile input with 4xx, never 500', async () => {
    const refused = await subscribe({ business: 'acme', webhook: 'https://169.254.169.254/latest' });
    expect(refused.status).toBe(400);
    expect(refused.body.value.reason).toBe('PUBLIC_STATUS_WEBHOOK_URL_REFUSED');
    const hostile: unknown[] = [
      {},
      { business: 'acme' },
      { business: 'acme', email: 'a@example.com', webhook: hook.url },
      { business: 'acme', email: 'not-an-email' },
      { business: 'acme', email: 'a@example.com\r\nBcc: x@evil.com' },
      { business: 'acme', email: ['a@example.com'] },
      { business: 'acme', email: null },
      { business: 'ACME', email: 'a@example.com' },
      { business: 'acme', email: 'a@example.com', products: 'api' },
      { business: 'acme', email: 'a@example.com', products: ['hidden'] },
      { business: 'acme', email: 'a@example.com', products: ['api', 'api'] },
      { business: 'acme', email: 'a@example.com', extra: 1 },
      { business: 'acme', webhook: 'javascript:alert(1)' },
      { business: 'acme', webhook: 'x'.repeat(5000) },
      { business: 'nobody', email: 'a@example.com' },
      { business: 'acme', email: `${'a'.repeat(300)}@example.com` },
    ];
    for (const body of hostile) {
      const r = await subscribe(body);
      expect([r.status, body]).toEqual([expect.any(Number), body]);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    for (const token of [
      '',
      'x',
      'c.sub_aaaaaaaaaaaaaaaaaaaa.1.aaaa',
      `u.sub_${'a'.repeat(20)}.${'A'.repeat(43)}`,
    ]) {
      const r = await s.get(`Unsubscribe?token=${encodeURIComponent(token)}`);
      expect(r.status).toBe(400);
      const c = await s.get(`Subscribe/confirm?token=${encodeURIComponent(token)}`);
      expect(c.status).toBe(400);
    }
  });
});
