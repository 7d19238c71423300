import { withClient } from '@platform/testing';
import { startLending, type LendingFixture } from './lending-fixture';
import { applicationBody, checked, insertCustomer, submitted, type AppView } from './applications-helpers';

type Page<T> = { items: T[]; total: number };
type History = {
  seq: number;
  fromStatus: string | null;
  toStatus: string;
  action: string;
  actor: string;
  keyId: string | null;
  reason: string | null;
  at: string;
};
type StatusEntry = {
  code: string;
  name: string;
  terminal: boolean;
  transitions: { action: string; to: string; toName: string; by: string }[];
};

describe('applications: the workflow (real PostgreSQL)', () => {
  let s: LendingFixture;
  let bank: Record<string, string>;
  let customer: string;

  beforeAll(async () => {
    s = await startLending('lending_app_workflow');
    bank = await s.organization('bank-w');
    customer = await insertCustomer(s, 'bank-w');
  });

  afterAll(async () => {
    await s?.close();
  });

  /** A key's id is the middle part of its token (`lnd_<keyId>_<secret>`). */
  const keyIdOf = (headers: Record<string, string>) => headers['X-Api-Key'].split('_')[1];

  it('walks the whole happy path: create, update, submit, checks, review, counter-offer, accept', async () => {
    const created = await s.call<AppView>(
      bank,
      'POST',
      '/Applications/CreateApplication',
      applicationBody(customer, '900101300541'),
    );
    expect(created.status).toBe(201);
    const app = created.body.value;
    expect(app).toMatchObject({
      status: 'draft',
      statusName: 'Draft',
      customerId: customer,
      product: {
        productCode: 'CONSUMER_CASH',
        amount: 1_000_000,
        currency: 'KZT',
        termMonths: 12,
        purpose: 'Repairs',
      },
      applicant: { nationalIdMasked: '********0541', monthlyIncome: 500_000, monthlyExpenses: 100_000 },
      channel: 'online',
      checks: [],
      decision: null,
    });
    expect(app.allowedMoves.map((m) => m.action).sort()).toEqual(['CancelApplication', 'SubmitApplication']);

    // A draft changes only in the fields sent.
    const updated = await s.call<AppView>(bank, 'POST', '/Applications/UpdateApplication', {
      applicationId: app.id,
      product: { amount: 1_200_000, termMonths: 18 },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.value.product).toMatchObject({
      amount: 1_200_000,
      termMonths: 18,
      productCode: 'CONSUMER_CASH',
    });

    const sent = await s.call<AppView>(bank, 'POST', '/Applications/SubmitApplication', {
      applicationId: app.id,
      reason: 'signed at the branch',
    });
    expect([sent.status, sent.body.value.status]).toEqual([200, 'submitted']);

    // Once submitted it no longer changes.
    const late = await s.call(
      bank,
      'POST',
      '/Applications/UpdateApplication',
      { applicationId: app.id, channel: 'branch' },
      'ru',
    );
    expect([late.status, late.body.value.reason]).toEqual([409, 'APPLICATION_NOT_EDITABLE']);
    expect(late.body.error).toBe('Изменить можно только черновик заявки; эта заявка в статусе «Подана».');

    // ...41: every check passes but the score (640) is under the auto-approval bar: a person decides.
    const run = await s.call<AppView>(bank, 'POST', '/Applications/RunChecks', { applicationId: app.id });
    expect(run.status).toBe(200);
    expect(run.body.value.status).toBe('under_review');
    expect(run.body.value.checks.map((c) => [c.step, c.status])).toEqual([
      ['identity_verification', 'passed'],
      ['credit_bureau', 'passed'],
      ['aml_screening', 'passed'],
      ['scoring', 'passed'],
      ['affordability', 'passed'],
    ]);
    const scoring = run.body.value.checks.find((c) => c.step === 'scoring');
    expect(scoring?.result).toMatchObject({ score: 640, modelVersion: 'stub-1' });
    expect((scoring?.result?.factors as unknown[]).length).toBe(3);
    expect(run.body.value.decision).toBeNull();

    const decided = await s.call<AppView>(
      bank,
      'POST',
      '/Applications/MakeDecision',
      {
        applicationId: app.id,
        outcome: 'counter_offer',
        reasons: ['AMOUNT_REDUCED', 'RATE_ADJUSTED_FOR_RISK'],
        offer: { amount: 900_000, termMonths: 24, annualRateBps: 2650 },
        note: 'Income confirmed by statement',
      },
      'es',
    );
    expect(decided.status).toBe(200);
    expect(decided.body.value).toMatchObject({
      status: 'counter_offered',
      statusName: 'Contraoferta realizada',
      decision: {
        outcome: 'counter_offer',
        outcomeName: 'Contraoferta',
        decidedBy: 'person',
        reasons: [
          { code: 'AMOUNT_REDUCED', text: 'Se redujo el importe' },
          { code: 'RATE_ADJUSTED_FOR_RISK', text: 'Se ajustó el tipo de interés al riesgo' },
        ],
        offer: { amount: 900_000, currency: 'KZT', termMonths: 24, annualRateBps: 2650 },
      },
    });

    const accepted = await s.call<AppView>(bank, 'POST', '/Applications/AcceptOffer', {
      applicationId: app.id,
    });
    expect([accepted.status, accepted.body.value.status, accepted.body.value.allowedMoves]).toEqual([
      200,
      'accepted',
      [],
    ]);

    // The history: every move, in order, with who and why.
    const history = await s.call<Page<History>>(
      bank,
      'GET',
      `/Applications/GetApplicationHistory?ApplicationId=${app.id}`,
    );
    const keyId = keyIdOf(bank);
    expect(history.body.value.total).toBe(6);
    expect(history.body.value.items.map((h) => [h.seq, h.fromStatus, h.toStatus, h.action, h.actor])).toEqual(
      [
        [1, null, 'draft', 'CreateApplication', 'key'],
        [2, 'draft', 'submitted', 'SubmitApplication', 'key'],
        [3, 'submitted', 'checks_in_progress', 'RunChecks', 'key'],
        [4, 'checks_in_progress', 'under_review', 'ChecksCompleted', 'rules'],
        [5, 'under_review', 'counter_offered', 'MakeDecision', 'key'],
        [6, 'counter_offered', 'accepted', 'AcceptOffer', 'key'],
      ],
    );
    expect(history.body.value.items.every((h) => h.keyId === keyId && typeof h.at === 'string')).toBe(true);
    expect(history.body.value.items[1].reason).toBe('signed at the branch');
    expect(history.body.value.items[3].reason).toBe('waiting for a person: score 640 below 700');
    const paged = await s.call<Page<History>>(
      bank,
      'GET',
      `/Applications/GetApplicationHistory?ApplicationId=${app.id}&Offset=4&Count=5`,
    );
    expect(paged.body.value.items.map((h) => h.seq)).toEqual([5, 6]);
    expect(paged.body.value.total).toBe(6);

    const decisions = await s.call<Page<{ decidedBy: string }>>(
      bank,
      'GET',
      `/Applications/GetDecisions?ApplicationId=${app.id}`,
    );
    expect(decisions.body.value.total).toBe(1);
  });

  it('auto-approves a clean application by the rules, then the customer may reject the offer', async () => {
    const app = await checked(s, bank, customer, '900101300500');
    expect(app.status).toBe('approved');
    expect(app.decision).toMatchObject({
      outcome: 'approve',
      decidedBy: 'rules',
      reasons: [
        { code: 'ALL_CHECKS_PASSED', text: 'All checks passed' },
        { code: 'SCORE_ABOVE_THRESHOLD', text: 'The score is above the approval threshold' },
      ],
      offer: { amount: 1_000_000, currency: 'KZT', termMonths: 12, annualRateBps: null },
    });
    const rejected = await s.call<AppView>(
      bank,
      'POST',
      '/Applications/RejectOffer',
      { applicationId: app.id },
      'tr',
    );
    expect([rejected.body.value.status, rejected.body.value.statusName]).toEqual([
      'rejected_by_customer',
      'Müşteri reddetti',
    ]);
  });

  it('lets a person approve or decline under review, with reasons and an approval as requested', async () => {
    const a = await checked(s, bank, customer, '900101300521'); // bureau: no record -> under review
    expect(a.status).toBe('under_review');
    const approved = await s.call<AppView>(bank, 'POST', '/Applications/MakeDecision', {
      applicationId: a.id,
      outcome: 'approve',
    });
    expect(approved.body.value.decision).toMatchObject({
      outcome: 'approve',
      decidedBy: 'person',
      reasons: [{ code: 'REVIEWED_BY_UNDERWRITER' }],
      offer: { amount: 1_000_000, termMonths: 12, annualRateBps: null },
    });
    const expired = await s.call<AppView>(bank, 'POST', '/Applications/ExpireApplication', {
      applicationId: a.id,
    });
    expect(expired.body.value.status).toBe('expired');

    const b = await checked(s, bank, customer, '900101300532'); // AML possible match -> under review
    const declined = await s.call<AppView>(
      bank,
      'POST',
      '/Applications/MakeDecision',
      {
        applicationId: b.id,
        outcome: 'decline',
        reasons: ['AML_MATCH'],
      },
      'kk',
    );
    expect(declined.body.value).toMatchObject({
      status: 'declined',
      statusName: 'Қабылданбады',
      decision: {
        outcome: 'decline',
        offer: null,
        reasons: [{ code: 'AML_MATCH', text: 'Өтініш беруші санкциялық немесе AML тізімінде бар' }],
      },
    });
  });

  it('refuses a decision of the wrong shape with field errors, before anything changes', async () => {
    const a = await checked(s, bank, customer, '900101300541');
    const cases: [Record<string, unknown>, string[]][] = [
      [{ outcome: 'decline' }, ['reasons:arrayNotEmpty']],
      [{ outcome: 'counter_offer', reasons: ['AMOUNT_REDUCED'] }, ['offer:isDefined']],
      [
        { outcome: 'decline', reasons: ['OTHER'], offer: { amount: 1, termMonths: 1, annualRateBps: 1 } },
        ['offer:whitelistValidation'],
      ],
      [{ outcome: 'maybe', reasons: ['NOPE'] }, ['outcome:isIn', 'reasons:isIn']],
      [
        {
          outcome: 'counter_offer',
          reasons: ['OTHER'],
          offer: { amount: -5, termMonths: 9999, annualRateBps: 1 },
        },
        ['offer.amount:min', 'offer.termMonths:max'],
      ],
    ];
    for (const [body, expected] of cases) {
      const res = await s.call(bank, 'POST', '/Applications/MakeDecision', { applicationId: a.id, ...body });
      expect([res.status, res.body.value.reason]).toEqual([400, 'VALIDATION_FAILED']);
      expect(res.body.value.fields?.map((f) => `${f.field}:${f.rule}`).sort()).toEqual(expected);
    }
    const still = await s.call<AppView>(bank, 'GET', `/Applications/GetApplication?ApplicationId=${a.id}`);
    expect(still.body.value.status).toBe('under_review');
  });

  it('answers an illegal move with a localised 409 naming both statuses, in all six languages', async () => {
    const id = await submitted(s, bank, customer);
    const expected: Record<string, string> = {
      en: 'The application cannot move from “Submitted” to “Accepted by the customer”.',
      ru: 'Заявку нельзя перевести из статуса «Подана» в статус «Принята клиентом».',
      kk: 'Өтінімді «Жіберілді» мәртебесінен «Клиент қабылдады» мәртебесіне ауыстыру мүмкін емес.',
      uz: "Arizani «Yuborildi» holatidan «Mijoz qabul qildi» holatiga o'tkazib bo'lmaydi.",
      tr: 'Başvuru “Gönderildi” durumundan “Müşteri kabul etti” durumuna geçirilemez.',
      es: 'La solicitud no puede pasar de «Enviada» a «Aceptada por el cliente».',
    };
    for (const [lang, text] of Object.entries(expected)) {
      const res = await s.call(bank, 'POST', '/Applications/AcceptOffer', { applicationId: id }, lang);
      expect([res.status, res.body.value.reason, res.body.error]).toEqual([
        409,
        'APPLICATION_TRANSITION_NOT_ALLOWED',
        text,
      ]);
      expect(res.body.value).toMatchObject({ from: 'submitted', to: 'accepted', action: 'AcceptOffer' });
    }
    for (const [path, body] of [
      ['/Applications/SubmitApplication', { applicationId: id }],
      ['/Applications/MakeDecision', { applicationId: id, outcome: 'approve' }],
      ['/Applications/ExpireApplication', { applicationId: id }],
    ] as const) {
      const res = await s.call(bank, 'POST', path, body);
      expect([res.status, res.body.value.reason]).toEqual([409, 'APPLICATION_TRANSITION_NOT_ALLOWED']);
    }
    // Cancelled: final, every move refused.
    expect(
      (await s.call<AppView>(bank, 'POST', '/Applications/CancelApplication', { applicationId: id })).body
        .value.status,
    ).toBe('cancelled');
    const again = await s.call(bank, 'POST', '/Applications/RunChecks', { applicationId: id }, 'uz');
    expect([again.status, again.body.error]).toEqual([
      409,
      "Arizani «Bekor qilindi» holatidan «Tekshiruvlar o'tkazilmoqda» holatiga o'tkazib bo'lmaydi.",
    ]);
    const history = await s.call<Page<History>>(
      bank,
      'GET',
      `/Applications/GetApplicationHistory?ApplicationId=${id}`,
    );
    expect(history.body.value.items.map((h) => h.toStatus)).toEqual(['draft', 'submitted', 'cancelled']);
  });

  it('serialises concurrent conflicting moves: exactly one wins, the other is a 409', async () => {
    for (let round = 0; round < 5; round++) {
      const id = await submitted(s, bank, customer);
      const results = await Promise.all([
        s.call<AppView>(bank, 'POST', '/Applications/CancelApplication', { applicationId: id }),
        s.call<AppView>(bank, 'POST', '/Applications/WithdrawApplication', { applicationId: id }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = results.find((r) => r.status === 200)?.body.value.status;
      const history = await s.call<Page<History>>(
        bank,
        'GET',
        `/Applications/GetApplicationHistory?ApplicationId=${id}`,
      );
      expect(history.body.value.items.map((h) => h.toStatus)).toEqual(['draft', 'submitted', winner]);
    }
    // Two identical moves at once: one moves, the other finds it already moved.
    const id = await submitted(s, bank, customer, '900101300541');
    const both = await Promise.all([
      s.call(bank, 'POST', '/Applications/RunChecks', { applicationId: id }),
      s.call(bank, 'POST', '/Applications/RunChecks', { applicationId: id }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.map((r) => r.body.value.reason).filter(Boolean)).toEqual([
      expect.stringMatching(/^APPLICATION_(CHECKS_RUNNING|TRANSITION_NOT_ALLOWED)$/),
    ]);
    const calls = await s.call<Page<unknown>>(
      bank,
      'GET',
      `/Applications/GetExternalCalls?ApplicationId=${id}`,
    );
    expect(calls.body.value.total).toBe(4);
  });

  it('keeps the status history append-only in the database itself', async () => {
    const id = await submitted(s, bank, customer);
    const tamper = (sql: string) =>
      withClient(s.db.url, async (c) => {
        await c.query('BEGIN');
        try {
          await c.query(`SELECT set_config('lending.organization_id', 'bank-w', true)`);
          await c.query('SET LOCAL ROLE lending_tenant');
          await c.query(sql, [id]);
        } finally {
          await c.query('ROLLBACK');
        }
      });
    await expect(
      tamper(`UPDATE lending.application_status_history SET reason = 'x' WHERE application_id = $1`),
    ).rejects.toThrow(/permission denied/);
    await expect(
      tamper(`DELETE FROM lending.application_status_history WHERE application_id = $1`),
    ).rejects.toThrow(/permission denied/);
    await expect(tamper(`DELETE FROM lending.external_calls WHERE application_id = $1`)).rejects.toThrow(
      /permission denied/,
    );
  });

  it('names every status and its allowed transitions in each of the six languages', async () => {
    const names: Record<string, [string, string]> = {
      en: ['Checks in progress', 'Counter-offer made'],
      ru: ['Идут проверки', 'Сделано встречное предложение'],
      kk: ['Тексерулер жүріп жатыр', 'Қарсы ұсыныс жасалды'],
      uz: ["Tekshiruvlar o'tkazilmoqda", 'Qarshi taklif berildi'],
      tr: ['Kontroller sürüyor', 'Karşı teklif yapıldı'],
      es: ['Verificaciones en curso', 'Contraoferta realizada'],
    };
    for (const [lang, [checks, counter]] of Object.entries(names)) {
      const res = await s.call<Page<StatusEntry>>(
        bank,
        'GET',
        '/Applications/GetApplicationStatuses',
        undefined,
        lang,
      );
      expect(res.status).toBe(200);
      expect(res.body.value.total).toBe(12);
      const byCode = new Map(res.body.value.items.map((i) => [i.code, i]));
      expect(byCode.get('checks_in_progress')?.name).toBe(checks);
      expect(byCode.get('counter_offered')?.name).toBe(counter);
      // Every name is a real text, different from its code.
      expect(res.body.value.items.every((i) => i.name && i.name !== i.code)).toBe(true);
      expect(byCode.get('draft')?.transitions.map((t) => [t.action, t.to])).toEqual([
        ['SubmitApplication', 'submitted'],
        ['CancelApplication', 'cancelled'],
      ]);
      expect(byCode.get('draft')?.transitions[0].toName).toBe(byCode.get('submitted')?.name);
      expect(byCode.get('accepted')).toMatchObject({ terminal: true, transitions: [] });
    }
    const reasons = await s.call<Page<{ code: string; text: string }>>(
      bank,
      'GET',
      '/Applications/GetDecisionReasons',
      undefined,
      'ru',
    );
    expect(reasons.body.value.items).toContainEqual({
      code: 'NOT_AFFORDABLE',
      text: 'Платежи не по силам заявителю',
    });
  });

  it("refuses another organization's customer and bad input as 404 and 400, never a 500", async () => {
    const other = await s.organization('bank-w-other');
    const foreign = await insertCustomer(s, 'bank-w-other');
    const res = await s.call(bank, 'POST', '/Applications/CreateApplication', applicationBody(foreign), 'ru');
    expect([res.status, res.body.value.reason, res.body.error]).toEqual([
      404,
      'APPLICATION_CUSTOMER_NOT_FOUND',
      `Клиент ${foreign} не найден.`,
    ]);
    expect(
      (await s.call(other, 'POST', '/Applications/CreateApplication', applicationBody(foreign))).status,
    ).toBe(201);

    const bad = await s.call(bank, 'POST', '/Applications/CreateApplication', {
      customerId: 'not-a-uuid',
      product: { productCode: '', amount: 10.5, currency: 'XYZ', termMonths: 0, extra: 1 },
      applicant: { nationalId: '12', monthlyIncome: -1 },
      channel: 'fax',
    });
    expect([bad.status, bad.body.value.reason]).toEqual([400, 'VALIDATION_FAILED']);
    expect(bad.body.value.fields?.map((f) => f.field)).toEqual(
      expect.arrayContaining([
        'customerId',
        'product.productCode',
        'product.amount',
        'product.currency',
        'product.termMonths',
        'product.extra',
        'applicant.nationalId',
        'applicant.monthlyIncome',
        'channel',
      ]),
    );
    const missing = await s.call(bank, 'POST', '/Applications/CreateApplication', {
      customerId: customer,
      channel: 'online',
    });
    expect(missing.body.value.fields?.map((f) => f.field).sort()).toEqual(
      expect.arrayContaining(['applicant', 'product']),
    );
    const nulls = await s.call(bank, 'POST', '/Applications/UpdateApplication', {
      applicationId: customer,
      channel: null,
      product: null,
    });
    expect(nulls.status).toBe(400);
    const unknown = await s.call(
      bank,
      'GET',
      '/Applications/GetApplication?ApplicationId=00000000-0000-4000-8000-000000000000',
      undefined,
      'tr',
    );
    expect([unknown.status, unknown.body.value.reason, unknown.body.error]).toEqual([
      404,
      'APPLICATION_NOT_FOUND',
      '00000000-0000-4000-8000-000000000000 başvurusu bulunamadı.',
    ]);
    expect((await s.call(bank, 'GET', '/Applications/GetApplication?ApplicationId=nope')).status).toBe(400);
  });

  it('asks a draft from before issue 12 to be completed before it is submitted', async () => {
    const [legacy] = await withClient(
      s.db.url,
      async (c) =>
        (
          await c.query<{ id: string }>(
            `INSERT INTO lending.applications (organization_id, status) VALUES ('bank-w', 'draft') RETURNING id`,
          )
        ).rows,
    );
    const view = await s.call<AppView>(
      bank,
      'GET',
      `/Applications/GetApplication?ApplicationId=${legacy.id}`,
    );
    expect(view.body.value).toMatchObject({
      status: 'draft',
      customerId: null,
      product: null,
      applicant: null,
      channel: null,
    });
    const refused = await s.call(bank, 'POST', '/Applications/SubmitApplication', {
      applicationId: legacy.id,
    });
    expect([refused.status, refused.body.value.reason]).toEqual([409, 'APPLICATION_INCOMPLETE']);
    expect(refused.body.error).toContain('customerId, product.productCode');
    const body = applicationBody(customer);
    await s.call(bank, 'POST', '/Applications/UpdateApplication', { applicationId: legacy.id, ...body });
    const sent = await s.call<AppView>(bank, 'POST', '/Applications/SubmitApplication', {
      applicationId: legacy.id,
    });
    expect([sent.status, sent.body.value.status]).toEqual([200, 'submitted']);
  });
});
