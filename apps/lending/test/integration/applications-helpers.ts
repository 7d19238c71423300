import { withClient } from '@platform/testing';
import type { LendingFixture } from './lending-fixture';

/** An application as the API answers it (the fields these tests read). */
export interface AppView {
  id: string;
  status: string;
  statusName: string;
  customerId: string | null;
  product: {
    productCode: string;
    amount: number;
    currency: string;
    termMonths: number;
    purpose: string | null;
  };
  applicant: { nationalIdMasked: string; monthlyIncome: number; monthlyExpenses: number };
  channel: string;
  checks: {
    step: string;
    stepName: string;
    status: string;
    statusName: string;
    provider: string;
    attempts: number;
    reasonCode: string | null;
    result: Record<string, unknown> | null;
    startedAt: string | null;
    completedAt: string | null;
  }[];
  decision: {
    outcome: string;
    outcomeName: string;
    decidedBy: string;
    keyId: string | null;
    reasons: { code: string; text: string }[];
    offer: { amount: number; currency: string; termMonths: number; annualRateBps: number | null } | null;
  } | null;
  allowedMoves: { action: string; to: string; toName: string; by: string }[];
}

/**
 * A customer of `organizationId`, inserted straight into lending.customers (the customers area's API
 * is built separately; applications only need the row).
 */
export async function insertCustomer(s: LendingFixture, organizationId: string): Promise<string> {
  return withClient(s.db.url, async (c) => {
    const res = await c.query<{ id: string }>(
      `INSERT INTO lending.customers (organization_id, kind) VALUES ($1, 'individual') RETURNING id`,
      [organizationId],
    );
    return res.rows[0].id;
  });
}

/** A valid CreateApplication body; `nationalId` chooses the stub providers' scenario. */
export function applicationBody(
  customerId: string,
  nationalId = '900101300500',
  over: Record<string, unknown> = {},
) {
  return {
    customerId,
    product: {
      productCode: 'CONSUMER_CASH',
      amount: 1_000_000,
      currency: 'KZT',
      termMonths: 12,
      purpose: 'Repairs',
    },
    applicant: { nationalId, monthlyIncome: 500_000, monthlyExpenses: 100_000 },
    channel: 'online',
    ...over,
  };
}

/** Creates and submits an application; returns its id. */
export async function submitted(
  s: LendingFixture,
  headers: Record<string, string>,
  customerId: string,
  nationalId?: string,
  over: Record<string, unknown> = {},
): Promise<string> {
  const created = await s.call<AppView>(
    headers,
    'POST',
    '/Applications/CreateApplication',
    applicationBody(customerId, nationalId, over),
  );
  if (created.status !== 201)
    throw new Error(`CreateApplication: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.value.id;
  const sent = await s.call(headers, 'POST', '/Applications/SubmitApplication', { applicationId: id });
  if (sent.status !== 200) throw new Error(`SubmitApplication: ${sent.status} ${JSON.stringify(sent.body)}`);
  return id;
}

/** Creates, submits and runs the checks; returns the answer of RunChecks. */
export async function checked(
  s: LendingFixture,
  headers: Record<string, string>,
  customerId: string,
  nationalId: string,
  over: Record<string, unknown> = {},
): Promise<AppView> {
  const id = await submitted(s, headers, customerId, nationalId, over);
  const res = await s.call<AppView>(headers, 'POST', '/Applications/RunChecks', { applicationId: id });
  if (res.status !== 200) throw new Error(`RunChecks: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.value;
}

export const stepsOf = (a: AppView) => Object.fromEntries(a.checks.map((c) => [c.step, c.status]));
