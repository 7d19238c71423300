import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { launchSystem, runAdmin, type RunningSystem } from '@platform/dev-infra';
import { createTestDatabase } from '@platform/testing';

const ROOT = resolve(__dirname, '../../../..');
const DIST = join(ROOT, 'dist');
const SHOTS = join(ROOT, 'tmp', 'browser');
const LANGUAGES = ['en', 'ru', 'kk', 'uz', 'tr', 'es'];
/** The spec's operation name is the operation id (libs/api-docs), and Swagger UI's DOM id. */
const OPERATION = 'GetApplications';

/** The operation's summary as the committed reference says it in `lang`: what the page must show. */
const summaryIn = (lang: string) =>
  (
    JSON.parse(readFileSync(join(ROOT, 'docs', 'openapi', `lending.${lang}.json`), 'utf8')) as {
      paths: Record<string, Record<string, { operationId: string; summary: string }>>;
    }
  ).paths['/Applications/GetApplications'].get.summary;

/**
 * A reader's path through the reference, in a real browser (Debian's chromium, headless): open it
 * through the gateway, switch through the six languages, authorise with a partner key and call the
 * API with "Try it out". Screenshots land in tmp/browser/ (not committed).
 */
describe('API reference in a browser, through the gateway', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let system: RunningSystem;
  let gw: string;
  let browser: Browser;
  let apiKey: string;
  let verificationKey: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    db = await createTestDatabase('reference_browser');
    const brokers = process.env.KAFKA_BROKERS as string;
    system = await launchSystem({
      distDir: DIST,
      databaseUrl: db.url,
      kafkaBrokers: brokers,
      ports: 'free',
      nodeEnv: 'test',
      env: { LOG_LEVEL: 'warn' },
    });
    gw = system.gatewayUrl;
    const env = { DATABASE_URL: db.url, KAFKA_BROKERS: brokers, NODE_ENV: 'test' };
    runAdmin(DIST, 'lending', ['create-organization', 'bank-a', 'Bank A'], env);
    apiKey = (
      runAdmin(DIST, 'lending', ['issue-key', 'bank-a', 'browser', 'applications:read'], env) as {
        token: string;
      }
    ).token;
    runAdmin(DIST, 'verification', ['create-organization', 'org-v', 'Org V'], env);
    verificationKey = (
      runAdmin(DIST, 'verification', ['issue-key', 'org-v', 'browser'], env) as { token: string }
    ).token;
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  }, 180000);

  afterAll(async () => {
    await browser?.close();
    await system?.stop();
    await db?.drop();
  });

  it('shows the translated summary in each of the six languages, switched on the page', async () => {
    const page = await browser.newPage();
    await page.goto(`${gw}/docs/lending?lang=en`);
    for (const lang of LANGUAGES) {
      if (lang !== 'en') {
        await Promise.all([
          page.waitForURL(new RegExp(`lang=${lang}`)),
          page.selectOption('#language', lang),
        ]);
      }
      const summary = page.locator(`#operations-Applications-${OPERATION} .opblock-summary-description`);
      await summary.waitFor({ timeout: 15000 });
      expect(await summary.textContent()).toBe(summaryIn(lang));
      expect(await page.getAttribute('html', 'lang')).toBe(lang);
      await page.screenshot({ path: join(SHOTS, `reference-lending-${lang}.png`) });
    }
    await page.close();
  }, 90000);

  it('calls the API with "Try it out": authorised with a key, the response appears on the page', async () => {
    const page = await browser.newPage();
    await page.goto(`${gw}/docs/lending?lang=en`);
    await page.locator('.auth-wrapper button.authorize').click();
    await page.locator('.modal-ux input[type="text"]').first().fill(apiKey);
    await page.locator('.modal-ux button.authorize').first().click();
    await page.locator('.modal-ux button.btn-done').first().click();
    const op = page.locator(`#operations-Applications-${OPERATION}`);
    await op.locator('.opblock-summary').click();
    await op.locator('button.try-out__btn').click();
    await op.locator('tr[data-param-name="Organization-Id"] input').fill('bank-a');
    await op.locator('button.execute').click();
    const body = op.locator('.live-responses-table .response-col_description pre').first();
    await body.waitFor({ timeout: 15000 });
    const text = (await body.textContent()) ?? '';
    expect(JSON.parse(text)).toEqual({
      success: true,
      code: 200,
      error: null,
      value: { items: [], total: 0 },
    });
    expect(
      await op.locator('.live-responses-table tbody .response-col_status').first().textContent(),
    ).toContain('200');
    await page.screenshot({ path: join(SHOTS, 'reference-lending-try-it-out.png'), fullPage: true });
    await page.close();
  }, 60000);

  it('sends the page\'s language as Language-Code with "Try it out": the error comes back in it', async () => {
    const page = await browser.newPage();
    await page.goto(`${gw}/docs/lending?lang=ru`);
    await page.locator('.auth-wrapper button.authorize').click();
    await page.locator('.modal-ux input[type="text"]').first().fill(apiKey);
    await page.locator('.modal-ux button.authorize').first().click();
    await page.locator('.modal-ux button.btn-done').first().click();
    const op = page.locator(`#operations-Applications-${OPERATION}`);
    await op.locator('.opblock-summary').click();
    await op.locator('button.try-out__btn').click();
    // Another organization than the key's: a localised refusal.
    await op.locator('tr[data-param-name="Organization-Id"] input').fill('bank-z');
    const [call] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/Applications/GetApplications')),
      op.locator('button.execute').click(),
    ]);
    expect(call.headers()['language-code']).toBe('ru');
    const body = op.locator('.live-responses-table .response-col_description pre').first();
    await body.waitFor({ timeout: 15000 });
    const answer = JSON.parse((await body.textContent()) ?? '{}') as { success: boolean; error: string };
    expect(answer.success).toBe(false);
    expect(answer.error).toMatch(/[А-Яа-яЁё]/);
    await page.close();
  }, 60000);

  it("authorises verification with OAuth 2.0 client credentials in Swagger UI's dialog: the call carries the bearer token", async () => {
    const page = await browser.newPage();
    await page.goto(`${gw}/docs/verification?lang=en`);
    await page.locator('.auth-wrapper button.authorize').click();
    await page.locator('#client_id_clientCredentials').fill('org-v');
    await page.locator('#client_secret_clientCredentials').fill(verificationKey);
    const [token] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/oauth/token')),
      page.locator('.modal-ux .auth-container:has(#client_id_clientCredentials) button.authorize').click(),
    ]);
    expect(token.status()).toBe(200);
    await page.locator('.modal-ux button.close-modal').first().click();
    const op = page.locator('#operations-Activity_and_usage-getUsage');
    await op.locator('.opblock-summary').click();
    await op.locator('button.try-out__btn').click();
    const [call] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/api/v1/usage')),
      op.locator('button.execute').click(),
    ]);
    expect(call.headers().authorization).toMatch(/^Bearer \S+$/);
    const status = op.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor({ timeout: 15000 });
    expect(await status.textContent()).toContain('200');
    await page.screenshot({ path: join(SHOTS, 'reference-verification-oauth.png'), fullPage: true });
    await page.close();
  }, 60000);
});
