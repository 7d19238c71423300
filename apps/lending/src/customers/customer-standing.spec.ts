import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONSENT_TRANSITIONS, canRecordConsent, consentStateOf } from './consents/consent-rules';
import { CUSTOMER_STATUSES } from './customer-statuses';
import {
  CONSENT_GATED_OPERATIONS,
  CUSTOMER_STANDING,
  HELD_FOR_REVIEW,
  STANDING_OPERATIONS,
  firstMissingConsent,
  mayStart,
} from './customer-standing';

describe('customer standing (customer-standing.ts)', () => {
  it('lets an active customer start everything and a blocked or closed one only pay', () => {
    expect(STANDING_OPERATIONS.filter((op) => mayStart('active', op))).toEqual([...STANDING_OPERATIONS]);
    for (const status of ['blocked', 'closed'] as const)
      expect(STANDING_OPERATIONS.filter((op) => mayStart(status, op))).toEqual(['MakePayment']);
  });

  it('gates every step from submission to disbursement on the required consents, never a payment', () => {
    expect(CONSENT_GATED_OPERATIONS).not.toContain('MakePayment');
    expect(CONSENT_GATED_OPERATIONS).not.toContain('CreateApplication');
    expect(CONSENT_GATED_OPERATIONS).toEqual(
      expect.arrayContaining([
        'SubmitApplication',
        'ChecksCompleted',
        'MakeDecision',
        'CreateLoan',
        'DisburseLoan',
      ]),
    );
  });

  it('finds the first required consent not in force, and where it stands', () => {
    const given = { type: 'personal_data_processing', action: 'given' } as const;
    const withdrawn = { type: 'credit_bureau_request', action: 'withdrawn' } as const;
    expect(firstMissingConsent([], [])).toBeNull();
    expect(firstMissingConsent(['personal_data_processing'], [given])).toBeNull();
    expect(
      firstMissingConsent(['personal_data_processing', 'credit_bureau_request'], [given, withdrawn]),
    ).toEqual({
      type: 'credit_bureau_request',
      state: 'withdrawn',
    });
    expect(firstMissingConsent(['marketing'], [given])).toEqual({ type: 'marketing', state: 'none' });
  });

  it('records a consent event only where the consent table allows it', () => {
    expect(consentStateOf(null)).toBe('none');
    expect(canRecordConsent('none', 'withdrawn')).toBe(false);
    expect(canRecordConsent('withdrawn', 'withdrawn')).toBe(false);
    expect(canRecordConsent('given', 'withdrawn')).toBe(true);
    expect(Object.values(CONSENT_TRANSITIONS).every((next) => next.includes('given'))).toBe(true);
  });

  it('is the table docs/lending/customers.md shows ("Standing")', () => {
    const doc = readFileSync(join(__dirname, '../../../../docs/lending/customers.md'), 'utf8');
    const block = doc.split('<!-- standing-table:start -->')[1].split('<!-- standing-table:end -->')[0];
    const rows = block
      .trim()
      .split('\n')
      .slice(2)
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim().replace(/`/g, '')),
      );
    const expected = STANDING_OPERATIONS.map((op) => [
      op,
      ...CUSTOMER_STATUSES.map((status) =>
        CUSTOMER_STANDING[status].includes(op) ? 'yes' : HELD_FOR_REVIEW.includes(op) ? 'held' : 'refused',
      ),
      CONSENT_GATED_OPERATIONS.includes(op) ? 'yes' : 'no',
    ]);
    expect(rows).toEqual(expected);
  });
});
