import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonResponse } from '@platform/testing';
import { CONSENT_STATES, type ConsentState } from '../../src/customers/consents/consent-rules';
import {
  CUSTOMER_STATUSES,
  CUSTOMER_TRANSITIONS,
  type CustomerStatus,
} from '../../src/customers/customer-statuses';
import {
  CONSENT_GATED_OPERATIONS,
  HELD_FOR_REVIEW,
  STANDING_OPERATIONS,
  mayStart,
  type StandingOperation,
} from '../../src/customers/customer-standing';
import { applicationBody, insertCustomer, type AppView } from './applications-helpers';
import { startLending, type Env, type LendingFixture } from './lending-fixture';
import { idem, ok, productBody, transactionsOf, type LoanView } from './loans-helpers';

/**
 * Walks every (customer status, operation) pair of the standing table (customers/customer-standing.ts)
 * and every (consent state, operation) pair of the consents a product requires, through the HTTP API:
 * an allowed operation succeeds; a refused one answers the documented code and status with a reason
 * naming the status (or the consent) in the request's language, and writes nothing. The pairs come from
 * the tables: a new status, consent state or operation is walked without touching this file (a new
 * operation must add its case to CASES, or this file does not compile).
 */

const LANGS = ['en', 'ru', 'kk', 'uz', 'tr', 'es'] as const;
type Lang = (typeof LANGS)[number];
const I18N = join(__dirname, '../../src/i18n');
const customerTexts = Object.fromEntries(
  LANGS.map((l) => [l, JSON.parse(readFileSync(join(I18N, l, 'customers.json'), 'utf8'))]),
) as Record<Lang, { statuses: { customer: Record<string, string>; consent: Record<string, string> } }>;

const CONSENT = 'personal_data_processing';
/** The stub providers' scenarios (docs/lending/applications.md): default approves, `41` waits for a person. */
const APPROVED_ID = '900101300500';
const REVIEW_ID = '900101300541';

interface World {
  s: LendingFixture;
  headers: Record<string, string>;
  customerId: string;
  product: { id: string; code: string };
}

/** What one operation is applied to, prepared while the customer may still do everything. */
interface Subject {
  applicationId?: string;
  loanId?: string;
  applications?: number;
}

interface OperationCase {
  prepare(w: World): Promise<Subject>;
  run(w: World, subj: Subject, lang: Lang): Promise<JsonResponse<Env>>;
  /** The answer of an allowed operation. */
  succeeded(w: World, subj: Subject, res: JsonResponse<Env>): Promise<void>;
  /** Nothing of the refused operation was written. */
  unchanged(w: World, subj: Subject): Promise<void>;
}

/** A subject's id that its case's prepare step set. */
function must(id: string | undefined): string {
  if (!id) throw new Error('the subject was not prepared');
  return id;
}

const call = <T = Record<string, unknown>>(
  w: World,
  method: string,
  path: string,
  body?: unknown,
  lang: Lang = 'en',
) => w.s.call<T>(w.headers, method, path, body, lang);

async function draft(w: World, nationalId = APPROVED_ID): Promise<string> {
  const body = applicationBody(w.customerId, nationalId);
  body.product.productCode = w.product.code;
  return (await ok<AppView>(call(w, 'POST', '/Applications/CreateApplication', body), 201)).id;
}

async function submittedApp(w: World, nationalId = APPROVED_ID): Promise<string> {
  const id = await draft(w, nationalId);
  await ok(call(w, 'POST', '/Applications/SubmitApplication', { applicationId: id }));
  return id;
}

async function checkedApp(w: World, nationalId: string, expected: string): Promise<string> {
  const id = await submittedApp(w, nationalId);
  const app = await ok<AppView>(call(w, 'POST', '/Applications/RunChecks', { applicationId: id }));
  if (app.status !== expected) throw new Error(`prepared application is ${app.status}, not ${expected}`);
  return id;
}

async function createdLoanOf(w: World): Promise<Subject> {
  const applicationId = await checkedApp(w, APPROVED_ID, 'approved');
  const loan = await ok<LoanView>(
    call(w, 'POST', '/Loans/CreateLoan', { applicationId, productId: w.product.id }),
    201,
  );
  return { applicationId, loanId: loan.id };
}

async function applicationStatus(w: World, id: string): Promise<string> {
  return (await ok<AppView>(call(w, 'GET', `/Applications/GetApplication?ApplicationId=${id}`))).status;
}

async function applicationsOfCustomer(w: World): Promise<number> {
  const page = await ok<{ total: number }>(
    call(w, 'GET', `/Applications/GetApplications?CustomerId=${w.customerId}`),
  );
  return page.total;
}

const CASES: Record<StandingOperation, OperationCase> = {
  CreateApplication: {
    prepare: () => Promise.resolve({}),
    run: async (w, subj, lang) => {
      subj.applications = await applicationsOfCustomer(w);
      const body = applicationBody(w.customerId);
      body.product.productCode = w.product.code;
      return call(w, 'POST', '/Applications/CreateApplication', body, lang);
    },
    succeeded: async (_w, _subj, res) => {
      expect([res.status, (res.body.value as { status?: string }).status]).toEqual([201, 'draft']);
    },
    unchanged: async (w, subj) => expect(await applicationsOfCustomer(w)).toBe(subj.applications),
  },
  SubmitApplication: {
    prepare: async (w) => ({ applicationId: await draft(w) }),
    run: (w, subj, lang) =>
      call(w, 'POST', '/Applications/SubmitApplication', { applicationId: subj.applicationId }, lang),
    succeeded: async (_w, _subj, res) =>
      expect([res.status, (res.body.value as { status?: string }).status]).toEqual([200, 'submitted']),
    unchanged: async (w, subj) => expect(await applicationStatus(w, must(subj.applicationId))).toBe('draft'),
  },
  ChecksCompleted: {
    prepare: async (w) => ({ applicationId: await submittedApp(w) }),
    run: (w, subj, lang) =>
      call(w, 'POST', '/Applications/RunChecks', { applicationId: subj.applicationId }, lang),
    succeeded: async (_w, _subj, res) =>
      expect([res.status, (res.body.value as { status?: string }).status]).toEqual([200, 'approved']),
    // Held for a person: under review, no decision, and the history says why.
    unchanged: async (w, subj) => {
      const app = await ok<AppView>(
        call(w, 'GET', `/Applications/GetApplication?ApplicationId=${subj.applicationId}`),
      );
      expect([app.status, app.decision]).toEqual(['under_review', null]);
      const history = await ok<{ items: { toStatus: string; reason: string | null }[] }>(
        call(w, 'GET', `/Applications/GetApplicationHistory?ApplicationId=${subj.applicationId}`),
      );
      const last = history.items.find((h) => h.toStatus === 'under_review');
      expect(last?.reason).toMatch(/^approval held: /);
    },
  },
  MakeDecision: {
    prepare: async (w) => ({ applicationId: await checkedApp(w, REVIEW_ID, 'under_review') }),
    run: (w, subj, lang) =>
      call(
        w,
        'POST',
        '/Applications/MakeDecision',
        { applicationId: subj.applicationId, outcome: 'approve' },
        lang,
      ),
    succeeded: async (_w, _subj, res) =>
      expect([res.status, (res.body.value as { status?: string }).status]).toEqual([200, 'approved']),
    unchanged: async (w, subj) => {
      const app = await ok<AppView>(
        call(w, 'GET', `/Applications/GetApplication?ApplicationId=${subj.applicationId}`),
      );
      expect([app.status, app.decision]).toEqual(['under_review', null]);
    },
  },
  AcceptOffer: {
    prepare: async (w) => ({ applicationId: await checkedApp(w, APPROVED_ID, 'approved') }),
    run: (w, subj, lang) =>
      call(w, 'POST', '/Applications/AcceptOffer', { applicationId: subj.applicationId }, lang),
    succeeded: async (_w, _subj, res) =>
      expect([res.status, (res.body.value as { status?: string }).status]).toEqual([200, 'accepted']),
    unchanged: async (w, subj) =>
      expect(await applicationStatus(w, must(subj.applicationId))).toBe('approved'),
  },
  CreateLoan: {
    prepare: async (w) => ({ applicationId: await checkedApp(w, APPROVED_ID, 'approved') }),
    run: (w, subj, lang) =>
      call(
        w,
        'POST',
        '/Loans/CreateLoan',
        { applicationId: subj.applicationId, productId: w.product.id },
        lang,
      ),
    succeeded: async (_w, _subj, res) =>
      expect([res.status, (res.body.value as { status?: string }).status]).toEqual([201, 'created']),
    unchanged: async (w, subj) => {
      const loans = await ok<{ total: number }>(
        call(w, 'GET', `/Loans/GetLoans?ApplicationId=${subj.applicationId}`),
      );
      expect(loans.total).toBe(0);
    },
  },
  DisburseLoan: {
    prepare: createdLoanOf,
    run: (w, subj, lang) =>
      w.s.call(idem(w.headers), 'POST', '/Loans/DisburseLoan', { loanId: subj.loanId }, lang),
    succeeded: async (_w, _subj, res) =>
      expect([res.status, (res.body.value as { loan?: { status: string } }).loan?.status]).toEqual([
        200,
        'active',
      ]),
    unchanged: async (w, subj) => {
      const loan = await ok<LoanView>(call(w, 'GET', `/Loans/GetLoan?LoanId=${subj.loanId}`));
      expect([loan.status, await transactionsOf(w.s, must(subj.loanId))]).toEqual(['created', 0]);
    },
  },
  MakePayment: {
    prepare: async (w) => {
      const subj = await createdLoanOf(w);
      await ok(w.s.call(idem(w.headers), 'POST', '/Loans/DisburseLoan', { loanId: subj.loanId }));
      return subj;
    },
    run: (w, subj, lang) =>
      w.s.call(idem(w.headers), 'POST', '/Loans/MakePayment', { loanId: subj.loanId, amount: 10_000 }, lang),
    succeeded: async (w, subj, res) => {
      expect(res.status).toBe(200);
      expect(await transactionsOf(w.s, must(subj.loanId), 'repayment')).toBe(1);
    },
    unchanged: async (w, subj) => expect(await transactionsOf(w.s, must(subj.loanId), 'repayment')).toBe(0),
  },
};

/** The statuses in the order ChangeCustomerStatus reaches them from `active` (breadth first). */
function pathTo(target: CustomerStatus): CustomerStatus[] {
  const queue: CustomerStatus[][] = [['active']];
  while (queue.length) {
    const path = queue.shift() as CustomerStatus[];
    const at = path[path.length - 1];
    if (at === target) return path.slice(1);
    for (const next of CUSTOMER_TRANSITIONS[at]) if (!path.includes(next)) queue.push([...path, next]);
  }
  throw new Error(`no way from active to ${target}`);
}

async function newWorld(
  s: LendingFixture,
  org: string,
  product: Record<string, unknown> = {},
): Promise<World> {
  const headers = await s.organization(org);
  const p = await ok<{ id: string; code: string }>(
    s.call(headers, 'POST', '/Loans/CreateLoanProduct', productBody(product)),
    201,
  );
  return { s, headers, customerId: await insertCustomer(s, org), product: p };
}

async function prepareAll(w: World): Promise<Record<StandingOperation, Subject>> {
  const subjects = {} as Record<StandingOperation, Subject>;
  for (const op of STANDING_OPERATIONS) subjects[op] = await CASES[op].prepare(w);
  return subjects;
}

/** Runs each operation on its subject and checks the answer against `refusal(op)`. */
async function walk(
  w: World,
  subjects: Record<StandingOperation, Subject>,
  refusal: (op: StandingOperation) => { code: string; named: (lang: Lang) => string } | null,
): Promise<string[]> {
  const seen: string[] = [];
  for (const [i, op] of STANDING_OPERATIONS.entries()) {
    const lang = LANGS[i % LANGS.length];
    const c = CASES[op];
    const res = await c.run(w, subjects[op], lang);
    const refused = refusal(op);
    if (!refused) {
      await c.succeeded(w, subjects[op], res);
      seen.push(`${op}: allowed`);
    } else if (HELD_FOR_REVIEW.includes(op)) {
      expect(res.status).toBe(200);
      await c.unchanged(w, subjects[op]);
      seen.push(`${op}: held`);
    } else {
      expect([res.status, res.body.success, res.body.value.reason]).toEqual([409, false, refused.code]);
      expect(res.body.error).toContain(refused.named(lang));
      await c.unchanged(w, subjects[op]);
      seen.push(`${op}: ${refused.code}`);
    }
  }
  return seen;
}

describe('lending: every (status, operation) pair of the standing tables, through the API', () => {
  let s: LendingFixture;

  beforeAll(async () => {
    s = await startLending('lending_status_walk');
  }, 120_000);
  afterAll(() => s?.close());

  it('GetCustomerStatuses answers the same table: what each status allows', async () => {
    const headers = await s.organization('walk-dictionary');
    const r = await s.call<{ items: { status: string; allows: string[] }[] }>(
      headers,
      'GET',
      '/Customers/GetCustomerStatuses',
    );
    expect(r.body.value.items.map((i) => [i.status, i.allows])).toEqual(
      CUSTOMER_STATUSES.map((status) => [status, STANDING_OPERATIONS.filter((op) => mayStart(status, op))]),
    );
  });

  it.each(CUSTOMER_STATUSES.map((status) => [status]))(
    'a customer %s: each operation is allowed or refused as CUSTOMER_STANDING says',
    async (status: CustomerStatus) => {
      const w = await newWorld(s, `walk-status-${status}`);
      const subjects = await prepareAll(w);
      let version = 1;
      for (const to of pathTo(status)) {
        const moved = await ok<{ version: number }>(
          call(w, 'POST', '/Customers/ChangeCustomerStatus', {
            customerId: w.customerId,
            status: to,
            version,
          }),
        );
        version = moved.version;
      }
      const seen = await walk(w, subjects, (op) =>
        mayStart(status, op)
          ? null
          : {
              code: 'CUSTOMER_NOT_IN_GOOD_STANDING',
              named: (lang) => customerTexts[lang].statuses.customer[status],
            },
      );
      // Every operation was walked, and the table's verdicts are what the API did.
      expect(seen).toHaveLength(STANDING_OPERATIONS.length);
      expect(seen.filter((x) => x.endsWith(': allowed')).length).toBe(
        STANDING_OPERATIONS.filter((op) => mayStart(status, op)).length,
      );
    },
    120_000,
  );

  it.each(CONSENT_STATES.map((state) => [state]))(
    'a consent the product requires, %s: the steps that need it are allowed only while it is given',
    async (state: ConsentState) => {
      // Prepared on a product that requires nothing yet, then the product starts requiring the consent.
      const w = await newWorld(s, `walk-consent-${state}`);
      const subjects = await prepareAll(w);
      const product = await ok<{ requiredConsents: string[] }>(
        call(w, 'POST', '/Loans/UpdateLoanProduct', { productId: w.product.id, requiredConsents: [CONSENT] }),
      );
      expect(product.requiredConsents).toEqual([CONSENT]);
      const consent = { customerId: w.customerId, type: CONSENT, channel: 'api' };
      if (state !== 'none')
        await ok(call(w, 'POST', '/Customers/GiveConsent', { ...consent, textVersion: '2026-01' }), 201);
      if (state === 'withdrawn') await ok(call(w, 'POST', '/Customers/WithdrawConsent', consent));
      const seen = await walk(w, subjects, (op) =>
        state === 'given' || !CONSENT_GATED_OPERATIONS.includes(op)
          ? null
          : {
              code: 'CUSTOMER_CONSENT_REQUIRED',
              named: (lang) => customerTexts[lang].statuses.consent[state],
            },
      );
      expect(seen).toHaveLength(STANDING_OPERATIONS.length);
      if (state !== 'given') expect(seen).toContain('DisburseLoan: CUSTOMER_CONSENT_REQUIRED');
    },
    120_000,
  );
});
