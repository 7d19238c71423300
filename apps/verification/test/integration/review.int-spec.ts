import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Transactions } from '@platform/persistence';
import { createTestDatabase, listen, request, serviceEnv } from '@platform/testing';
import { TenancyAdminService, type OrganizationId } from '@platform/tenancy';
import { createVerificationApp } from '../../src/bootstrap';
import { CheckStepsRepository } from '../../src/checks/check-steps.repository';

type Env<T = unknown> = { success: boolean; code: number; error: string | null; value: T };
type Task = {
  id: string;
  caseId: string;
  status: string;
  origin: string;
  reason: string;
  summaryId: string | null;
  flags: { code: string; rule: string; stepId: string | null }[];
  assignee: string | null;
  decision: string | null;
  decidedAt: string | null;
  caseStatus: string;
  comments: { author: string; text: string }[];
  history: { fromStatus: string | null; toStatus: string; assignee: string | null; actor: string }[];
  reason_?: string;
};
type Reason = { reason: string; errors?: unknown };

/**
 * Manual review (docs/verification/manual-review.md) over real HTTP and PostgreSQL: tasks opened by
 * hand and by the summary's rules, assigned, commented, decided (the case moves with the decision),
 * their history and their manual_review.status_changed events.
 */
describe('verification manual review tasks (real PostgreSQL)', () => {
  let app: INestApplication;
  let base: string;
  let ds: DataSource;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let keyA: string;
  let keyB: string;
  let reader: string;
  let keyAId: string;
  let n = 0;

  beforeAll(async () => {
    db = await createTestDatabase('verification_review');
    app = await createVerificationApp(
      {
        ...serviceEnv(db.url),
        APPLICANT_PORTAL_URL: 'https://verify.example.com',
        DOCUMENT_EXPIRY_SWEEP_INTERVAL_MS: '0',
        ORCHESTRATOR_INTERVAL_MS: '0',
      },
      false,
    );
    base = await listen(app);
    ds = app.get(DataSource);
    const admin = app.get(TenancyAdminService);
    await admin.createOwner('org-a', 'A');
    await admin.createOwner('org-b', 'B');
    const a = await admin.issueKey('org-a', 'a');
    keyA = a.token;
    keyAId = a.keyId;
    keyB = (await admin.issueKey('org-b', 'b')).token;
    reader = (await admin.issueKey('org-a', 'reader', { scopes: ['manual-review:read', 'cases:read'] }))
      .token;
    await ds.query(
      `INSERT INTO verification.webhook_subscriptions (id, tenant_id, url, event_types, secret_ciphertext)
       VALUES (gen_random_uuid(), 'org-a', 'https://hooks.example.com/a', '{}', 'unused')`,
    );
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const auth = (key = keyA, org = 'org-a') => ({ 'X-API-Key': key, 'Service-Organization-Id': org });
  const api = <T>(method: string, path: string, body?: unknown, key = keyA, org = 'org-a') =>
    request<Env<T>>(`${base}/api/v1/${path}`, { method, headers: auth(key, org), body });

  const newCase = async (status = 'DocumentsReceived', key = keyA, org = 'org-a') => {
    const res = await request<Env<{ id: string }>>(`${base}/api/v1/verification-cases`, {
      method: 'POST',
      headers: { ...auth(key, org), 'Idempotency-Key': `review-${++n}` },
      body: {
        externalReferenceId: `REV-${n}`,
        applicantType: 'Individual',
        applicantCountryCode: 'KZ',
        reportCountryCode: 'KZ',
      },
    });
    expect(res.status).toBe(201);
    const id = res.body.value.id;
    if (status !== 'AwaitingApplicant')
      await ds.query(`UPDATE verification.verification_cases SET status = $2 WHERE id = $1`, [id, status]);
    return id;
  };
  const caseStatus = async (id: string) =>
    (await ds.query(`SELECT status FROM verification.verification_cases WHERE id = $1`, [id]))[0].status;
  const openByHand = (
    caseId: string,
    reason = 'Applicant called about a renewed passport',
    key = keyA,
    org = 'org-a',
  ) => api<Task & Reason>('POST', `verification-cases/${caseId}/review-tasks`, { reason }, key, org);
  const reviewEvents = async (taskId: string) =>
    (
      await ds.query(
        `SELECT d.payload FROM verification.webhook_deliveries d
          JOIN verification.outbox o ON o.id::text = d.event_id
          WHERE d.tenant_id = 'org-a' AND d.event_type = 'manual_review.status_changed' AND d.payload->>'taskId' = $1
          ORDER BY o.seq`,
        [taskId],
      )
    ).map((r: { payload: Record<string, unknown> }) => [
      r.payload.fromStatus,
      r.payload.toStatus,
      r.payload.assignee,
    ]);

  it('open by hand -> assign -> comment -> decide approve: the case moves Checking -> ManualReview -> Approved; history and events follow', async () => {
    const caseId = await newCase('Checking');
    const opened = await openByHand(caseId);
    expect(opened.status).toBe(201);
    expect(opened.body.value).toMatchObject({
      caseId,
      status: 'Open',
      origin: 'manual',
      reason: 'Applicant called about a renewed passport',
      flags: [],
      assignee: null,
      caseStatus: 'ManualReview',
    });
    const taskId = opened.body.value.id;
    expect(await caseStatus(caseId)).toBe('ManualReview');

    const assigned = await api<Task>('POST', `review-tasks/${taskId}/assign`, {
      assignee: 'ana@lender.example',
    });
    expect(assigned.status).toBe(200);
    expect(assigned.body.value).toMatchObject({ status: 'InProgress', assignee: 'ana@lender.example' });

    const handed = await api<Task>('POST', `review-tasks/${taskId}/assign`, {
      assignee: 'bek@lender.example',
    });
    expect(handed.body.value).toMatchObject({ status: 'InProgress', assignee: 'bek@lender.example' });

    const comment = await api<{ id: string; author: string; text: string }>(
      'POST',
      `review-tasks/${taskId}/comments`,
      { text: 'Called the applicant; the new passport matches.' },
    );
    expect(comment.status).toBe(201);
    expect(comment.body.value).toMatchObject({
      author: keyAId,
      text: 'Called the applicant; the new passport matches.',
    });

    const decided = await api<Task>('POST', `review-tasks/${taskId}/decide`, {
      decision: 'approve',
      comment: 'OK to lend.',
    });
    expect(decided.status).toBe(200);
    expect(decided.body.value).toMatchObject({
      status: 'Approved',
      decision: 'approve',
      caseStatus: 'Approved',
    });
    expect(decided.body.value.decidedAt).toEqual(expect.any(String));
    expect(await caseStatus(caseId)).toBe('Approved');

    const got = await api<Task>('GET', `review-tasks/${taskId}`, undefined, reader);
    expect(got.status).toBe(200);
    expect(got.body.value.comments.map((c) => c.text)).toEqual([
      'Called the applicant; the new passport matches.',
      'OK to lend.',
    ]);
    expect(got.body.value.history.map((h) => [h.fromStatus, h.toStatus, h.assignee, h.actor])).toEqual([
      [null, 'Open', null, keyAId],
      ['Open', 'InProgress', 'ana@lender.example', keyAId],
      ['InProgress', 'InProgress', 'bek@lender.example', keyAId],
      ['InProgress', 'Approved', 'bek@lender.example', keyAId],
    ]);
    expect(await reviewEvents(taskId)).toEqual([
      [null, 'Open', null],
      ['Open', 'InProgress', 'ana@lender.example'],
      ['InProgress', 'InProgress', 'bek@lender.example'],
      ['InProgress', 'Approved', 'bek@lender.example'],
    ]);
    const caseMoves = await ds.query(
      `SELECT d.payload->>'fromStatus' AS "from", d.payload->>'toStatus' AS "to" FROM verification.webhook_deliveries d
        JOIN verification.outbox o ON o.id::text = d.event_id
        WHERE d.event_type = 'case.status_changed' AND d.payload->>'caseId' = $1 ORDER BY o.seq`,
      [caseId],
    );
    expect(caseMoves.slice(-2)).toEqual([
      { from: 'Checking', to: 'ManualReview' },
      { from: 'ManualReview', to: 'Approved' },
    ]);

    // A decided task is closed: no second decision, no reassignment, no comments.
    for (const [path, body] of [
      ['decide', { decision: 'decline' }],
      ['assign', { assignee: 'x' }],
      ['comments', { text: 'late' }],
    ] as const) {
      const res = await api<Reason>('POST', `review-tasks/${taskId}/${path}`, body);
      expect(res.status).toBe(409);
      expect(res.body.value.reason).toBe('REVIEW_TASK_CLOSED');
    }
    expect(await caseStatus(caseId)).toBe('Approved');
  });

  it('a task opened by the summary rule is decided decline: the case is Declined', async () => {
    const caseId = await newCase('DocumentsReceived');
    const documentId = randomUUID();
    await app.get(Transactions).run((tx) =>
      app.get(CheckStepsRepository).recordForDocument(
        'org-a' as OrganizationId,
        caseId,
        documentId,
        [
          { step: 'file-type', outcome: 'passed', rule: 'file-type.magic-bytes', evidence: {}, detail: null },
          {
            step: 'document-parse',
            outcome: 'passed',
            rule: 'document-parse.pdf-text-mrz',
            evidence: {},
            detail: null,
          },
          {
            step: 'mrz-check-digits',
            outcome: 'passed',
            rule: 'ICAO9303.check-digits',
            evidence: {},
            detail: null,
          },
          {
            step: 'document-expiry',
            outcome: 'passed',
            rule: 'document-expiry.not-expired',
            evidence: {},
            detail: null,
          },
          {
            step: 'name-match',
            outcome: 'warning',
            rule: 'name-match.case-name-subset',
            evidence: { a: 1 },
            detail: null,
          },
          {
            step: 'birth-date-match',
            outcome: 'passed',
            rule: 'birth-date-match.equal',
            evidence: {},
            detail: null,
          },
        ],
        tx,
      ),
    );
    const summary = await api<{ reviewTaskId: string; caseStatus: string }>(
      'POST',
      `verification-cases/${caseId}/summary/generate`,
    );
    expect(summary.body.value.caseStatus).toBe('ManualReview');
    const taskId = summary.body.value.reviewTaskId;
    const task = await api<Task>('GET', `review-tasks/${taskId}`);
    expect(task.body.value).toMatchObject({ origin: 'rule', status: 'Open' });
    expect(task.body.value.flags.map((f) => [f.code, f.rule])).toEqual([
      ['NAME_PARTIAL_MATCH', 'name-match.case-name-subset'],
    ]);
    expect(task.body.value.history[0]).toMatchObject({ fromStatus: null, toStatus: 'Open', actor: 'rule' });

    // A second task by hand while this one is open: refused.
    const second = await openByHand(caseId);
    expect(second.status).toBe(409);
    expect(second.body.value.reason).toBe('REVIEW_TASK_ALREADY_OPEN');

    const decided = await api<Task>('POST', `review-tasks/${taskId}/decide`, { decision: 'decline' });
    expect(decided.status).toBe(200);
    expect(decided.body.value).toMatchObject({
      status: 'Declined',
      decision: 'decline',
      caseStatus: 'Declined',
      assignee: null,
    });
    expect(await caseStatus(caseId)).toBe('Declined');
  });

  it('lists tasks with filters status/assignee/caseId and paging, with the total', async () => {
    const c1 = await newCase('Checking');
    const c2 = await newCase('Checking');
    const c3 = await newCase('ManualReview');
    const t1 = (await openByHand(c1)).body.value.id;
    const t2 = (await openByHand(c2)).body.value.id;
    const t3 = (await openByHand(c3)).body.value.id;
    await api('POST', `review-tasks/${t2}/assign`, { assignee: 'list-reviewer' });
    await api('POST', `review-tasks/${t3}/assign`, { assignee: 'list-reviewer' });

    type Page = { items: Task[]; total: number };
    const mine = await api<Page>('GET', 'review-tasks?assignee=list-reviewer', undefined, reader);
    expect(mine.status).toBe(200);
    expect(mine.body.value.total).toBe(2);
    expect(mine.body.value.items.map((t) => t.id).sort()).toEqual([t2, t3].sort());
    const ofCase = await api<Page>('GET', `review-tasks?caseId=${c1}`);
    expect(ofCase.body.value).toMatchObject({ total: 1, items: [{ id: t1, status: 'Open' }] });
    const inProgress = await api<Page>(
      'GET',
      'review-tasks?status=InProgress&assignee=list-reviewer&limit=1',
    );
    expect(inProgress.body.value.total).toBe(2);
    expect(inProgress.body.value.items).toHaveLength(1);
    const next = await api<Page>(
      'GET',
      'review-tasks?status=InProgress&assignee=list-reviewer&limit=1&offset=1',
    );
    expect(next.body.value.items).toHaveLength(1);
    expect(next.body.value.items[0].id).not.toBe(inProgress.body.value.items[0].id);
    // Org B sees none of them.
    const other = await api<Page>('GET', 'review-tasks?assignee=list-reviewer', undefined, keyB, 'org-b');
    expect(other.body.value).toEqual({ items: [], total: 0 });
  });

  it('cancelling the case cancels its active task in the same transaction, with the event', async () => {
    const caseId = await newCase('Checking');
    const taskId = (await openByHand(caseId)).body.value.id;
    expect(
      (await api('POST', `review-tasks/${taskId}/assign`, { assignee: 'ana@lender.example' })).status,
    ).toBe(200);
    const cancelled = await api<{ status: string }>('POST', `verification-cases/${caseId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.value.status).toBe('Cancelled');

    // No later write is needed: the task is already Cancelled, with its history row and its event.
    const task = await api<Task>('GET', `review-tasks/${taskId}`);
    expect(task.body.value).toMatchObject({
      status: 'Cancelled',
      assignee: 'ana@lender.example',
      decision: null,
      caseStatus: 'Cancelled',
    });
    expect(task.body.value.history.at(-1)).toMatchObject({
      fromStatus: 'InProgress',
      toStatus: 'Cancelled',
      actor: 'system',
    });
    expect(await reviewEvents(taskId)).toEqual([
      [null, 'Open', null],
      ['Open', 'InProgress', 'ana@lender.example'],
      ['InProgress', 'Cancelled', 'ana@lender.example'],
    ]);
    // One transaction: the case's move and the task's move were written by the same one (same xmin).
    const [caseMove] = await ds.query(
      `SELECT xmin::text AS x FROM verification.case_status_history WHERE case_id = $1 AND to_status = 'Cancelled'`,
      [caseId],
    );
    const [taskMove] = await ds.query(
      `SELECT xmin::text AS x FROM verification.review_task_status_history WHERE task_id = $1 AND to_status = 'Cancelled'`,
      [taskId],
    );
    expect(taskMove.x).toBe(caseMove.x);

    // The task is closed and the case final: writes and a new task are refused, nothing moves again.
    const late = await api<Reason>('POST', `review-tasks/${taskId}/assign`, { assignee: 'late' });
    expect([late.status, late.body.value.reason]).toEqual([409, 'REVIEW_TASK_CLOSED']);
    const again = await openByHand(caseId);
    expect([again.status, again.body.value.reason]).toEqual([409, 'REVIEW_CASE_FINAL']);
    expect(await reviewEvents(taskId)).toHaveLength(3);
  });

  it('a second cancel is refused and cancels nothing; a case without a task cancels as before', async () => {
    const caseId = await newCase('Checking');
    const taskId = (await openByHand(caseId)).body.value.id;
    expect((await api('POST', `verification-cases/${caseId}/cancel`)).status).toBe(200);
    const second = await api<Reason>('POST', `verification-cases/${caseId}/cancel`);
    expect([second.status, second.body.value.reason]).toEqual([409, 'CASE_TRANSITION_NOT_ALLOWED']);
    expect(await reviewEvents(taskId)).toEqual([
      [null, 'Open', null],
      ['Open', 'Cancelled', null],
    ]);
    const bare = await newCase('Checking');
    const res = await api<{ status: string }>('POST', `verification-cases/${bare}/cancel`);
    expect([res.status, res.body.value.status]).toEqual([200, 'Cancelled']);
  });

  it('a task left active on a case closed some other way: the next write cancels it and answers 409 REVIEW_CASE_FINAL', async () => {
    const caseId = await newCase('Checking');
    const taskId = (await openByHand(caseId)).body.value.id;
    // Closed without the cancel path (as an older build did), so the task is still Open.
    await ds.query(`UPDATE verification.verification_cases SET status = 'Cancelled' WHERE id = $1`, [caseId]);
    const res = await api<Reason>('POST', `review-tasks/${taskId}/assign`, { assignee: 'late' });
    expect(res.status).toBe(409);
    expect(res.body.value.reason).toBe('REVIEW_CASE_FINAL');
    const task = await api<Task>('GET', `review-tasks/${taskId}`);
    expect(task.body.value).toMatchObject({ status: 'Cancelled', assignee: null, caseStatus: 'Cancelled' });
    expect((await reviewEvents(taskId)).at(-1)).toEqual(['Open', 'Cancelled', null]);
    // And a new task on the final case is refused.
    const again = await openByHand(caseId);
    expect(again.status).toBe(409);
    expect(again.body.value.reason).toBe('REVIEW_CASE_FINAL');
  });

  it('a case still awaiting the applicant cannot be reviewed yet', async () => {
    const caseId = await newCase('AwaitingApplicant');
    const res = await openByHand(caseId);
    expect(res.status).toBe(409);
    expect(res.body.value.reason).toBe('REVIEW_CASE_AWAITING_APPLICANT');
    expect(await caseStatus(caseId)).toBe('AwaitingApplicant');
  });

  it("another organization's case and task answer 404 exactly like unknown ids, and nothing changes", async () => {
    const caseId = await newCase('Checking');
    const taskId = (await openByHand(caseId)).body.value.id;
    const foreignCase = await openByHand(caseId, 'probe', keyB, 'org-b');
    expect(foreignCase.status).toBe(404);
    expect(foreignCase.body.value.reason).toBe('CASE_NOT_FOUND');
    for (const [method, path, body] of [
      ['GET', `review-tasks/${taskId}`, undefined],
      ['POST', `review-tasks/${taskId}/assign`, { assignee: 'intruder' }],
      ['POST', `review-tasks/${taskId}/comments`, { text: 'intruder' }],
      ['POST', `review-tasks/${taskId}/decide`, { decision: 'approve' }],
    ] as const) {
      const foreign = await api<Reason>(method, path, body, keyB, 'org-b');
      const unknown = await api<Reason>(method, path.replace(taskId, randomUUID()), body, keyB, 'org-b');
      expect(foreign.status).toBe(404);
      expect(foreign.body.value.reason).toBe('REVIEW_TASK_NOT_FOUND');
      expect(unknown.status).toBe(404);
      expect(unknown.body.value.reason).toBe(foreign.body.value.reason);
    }
    const task = await api<Task>('GET', `review-tasks/${taskId}`);
    expect(task.body.value).toMatchObject({ status: 'Open', assignee: null, comments: [] });
    expect(await caseStatus(caseId)).toBe('ManualReview');
  });

  it('bad input answers 400, never 500', async () => {
    const caseId = await newCase('Checking');
    const taskId = (await openByHand(caseId)).body.value.id;
    const cases: [string, string, unknown][] = [
      ['POST', `verification-cases/${caseId}/review-tasks`, {}],
      ['POST', `verification-cases/${caseId}/review-tasks`, { reason: '' }],
      ['POST', `verification-cases/${caseId}/review-tasks`, { reason: 'x'.repeat(2001) }],
      ['POST', `review-tasks/${taskId}/assign`, { assignee: 42 }],
      ['POST', `review-tasks/${taskId}/assign`, {}],
      ['POST', `review-tasks/${taskId}/comments`, { text: '' }],
      ['POST', `review-tasks/${taskId}/decide`, { decision: 'maybe' }],
      ['POST', `review-tasks/${taskId}/decide`, { decision: 'approve', comment: 5 }],
      ['GET', 'review-tasks?status=Nope', undefined],
      ['GET', 'review-tasks?caseId=not-a-uuid', undefined],
      ['GET', 'review-tasks?limit=0', undefined],
      ['GET', 'review-tasks?offset=-1', undefined],
    ];
    for (const [method, path, body] of cases) {
      const res = await api<Reason>(method, path, body);
      expect([method, path, res.status]).toEqual([method, path, 400]);
    }
    for (const bad of ['not-a-uuid', '%27--']) {
      const res = await api<Reason>('GET', `review-tasks/${bad}`);
      expect(res.status).toBe(404);
    }
    const task = await api<Task>('GET', `review-tasks/${taskId}`);
    expect(task.body.value).toMatchObject({ status: 'Open', comments: [] });
  });

  it('scopes: manual-review:read cannot write; a key without manual-review gets 403', async () => {
    const caseId = await newCase('Checking');
    const res = await openByHand(caseId, 'by a reader', reader);
    expect(res.status).toBe(403);
    const casesOnly = (
      await app.get(TenancyAdminService).issueKey('org-a', 'cases-only', { scopes: ['cases:read'] })
    ).token;
    expect((await api('GET', 'review-tasks', undefined, casesOnly)).status).toBe(403);
    expect(await caseStatus(caseId)).toBe('Checking');
  });
});
