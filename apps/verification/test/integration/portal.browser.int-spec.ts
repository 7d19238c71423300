import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { chromium, type Browser } from 'playwright-core';
import { createTestDatabase, listen, request, serviceEnv } from '@platform/testing';
import { TenancyAdminService } from '@platform/tenancy';
import { createVerificationApp } from '../../src/bootstrap';

const ROOT = resolve(__dirname, '../../../..');
const SHOTS = join(ROOT, 'tmp', 'browser');
/** A 1x1 PNG, as a phone's camera would hand it to the file input. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

type Env<T> = { success: boolean; value: T };

/**
 * The borrower's path through the portal in a real browser (Debian's chromium, headless) against a
 * real verification app: open the link, switch the language, upload a photo through the file input,
 * Finish, and see the thank-you text; then the link says it was used. Screenshots land in tmp/browser/
 * (not committed). The page runs under its own strict CSP: any violation fails the test.
 */
describe('borrower portal in a browser', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let app: INestApplication;
  let base: string;
  let browser: Browser;
  let key: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    db = await createTestDatabase('verification_portal_browser');
    app = await createVerificationApp(serviceEnv(db.url), false);
    base = await listen(app);
    const admin = app.get(TenancyAdminService);
    await admin.createOwner('org-a', 'A');
    key = (await admin.issueKey('org-a', 'a')).token;
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  }, 120000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await db?.drop();
  });

  it('switches language, uploads a photo, finishes, and then shows the link as used', async () => {
    const headers = { 'X-API-Key': key, 'Service-Organization-Id': 'org-a' };
    const created = await request<Env<{ id: string }>>(`${base}/api/v1/verification-cases`, {
      method: 'POST',
      headers: { ...headers, 'Idempotency-Key': 'browser-1' },
      body: {
        externalReferenceId: 'B-1',
        applicantType: 'Individual',
        applicantCountryCode: 'KZ',
        reportCountryCode: 'KZ',
      },
    });
    // A link issued in Kazakh: the borrower opens it and switches to Russian.
    const issued = await request<Env<{ url: string }>>(
      `${base}/api/v1/verification-cases/${created.body.value.id}/upload-link`,
      { method: 'POST', headers, body: { language: 'kk' } },
    );
    // APPLICANT_PORTAL_URL is the gateway's origin; this test talks to the app directly.
    const path = new URL(issued.body.value.url).pathname;

    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    const violations: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') violations.push(m.text());
    });
    page.on('pageerror', (e) => violations.push(e.message));

    await page.goto(`${base}${path}`);
    expect(await page.getAttribute('html', 'lang')).toBe('kk');
    expect(await page.textContent('h1')).toBe('Құжаттарыңызды жүктеңіз');
    await page.screenshot({ path: join(SHOTS, 'portal-kk.png'), fullPage: true });

    await Promise.all([page.waitForURL(/lang=ru/), page.click('nav.langs a[data-lang="ru"]')]);
    expect(await page.getAttribute('html', 'lang')).toBe('ru');
    expect(await page.textContent('h1')).toBe('Загрузите документы');
    expect(await page.isDisabled('#finish')).toBe(true);

    await page.selectOption('#kind', 'Passport');
    await page.setInputFiles('#file', { name: 'passport.png', mimeType: 'image/png', buffer: PNG });
    await page.locator('#uploaded li.done').first().waitFor({ timeout: 15000 });
    expect(await page.textContent('#uploaded li.done')).toBe('Паспорт: passport.png');
    expect(await page.textContent('#status')).toBe('Загружено');
    expect(await page.isDisabled('#finish')).toBe(false);
    await page.screenshot({ path: join(SHOTS, 'portal-ru-uploaded.png'), fullPage: true });

    await page.click('#finish');
    await page.locator('#thanks').waitFor({ state: 'visible', timeout: 15000 });
    expect(await page.textContent('#thanks h1')).toBe('Спасибо!');
    expect(await page.isVisible('#upload')).toBe(false);
    await page.screenshot({ path: join(SHOTS, 'portal-ru-thanks.png'), fullPage: true });

    const reopened = await page.goto(`${base}${path}?lang=ru`);
    expect(reopened?.status()).toBe(410);
    expect(await page.textContent('h1')).toBe('Эта ссылка уже использована');
    await page.screenshot({ path: join(SHOTS, 'portal-ru-used.png'), fullPage: true });

    // 410 on the reopened link is logged by Chromium as a failed resource; nothing else may be.
    expect(violations.filter((v) => !/status of 410/.test(v))).toEqual([]);
    await page.close();
  }, 60000);
});
