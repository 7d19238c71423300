import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sqlIn } from '../common/columns';

// Written out, not imported: a migration says what the schema became at its time, whatever the code
// says later. The entity CHECKs read the same lists from the loan math (DAY_COUNTS, INTEREST_METHODS).
const DAY_COUNTS_BEFORE = ['30/360', 'ACT/365F', 'ACT/ACT'];
const DAY_COUNTS = ['30/360', 'ACT/365F', 'ACT/ACT', '30/360 US', '30E/360', '30E/360 ISDA', 'ACT/360'];
const INTEREST_METHODS = ['periodic', 'day-count'];

/**
 * Issue 23 (docs/lending/loan-math.md, "Day counts" and "Interest method"): products and loans may use
 * the day counts 30/360 US, 30E/360, 30E/360 ISDA and ACT/360, and an annuity may bill each period's
 * interest by the day count (`day-count`) instead of rate / periods a year (`periodic`, what every
 * existing product and loan keeps).
 */
export class DayCountsInterestMethod1764240000000 implements MigrationInterface {
  name = 'DayCountsInterestMethod1764240000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['loan_products', 'loans']) {
      await q.query(`ALTER TABLE lending.${table}
        DROP CONSTRAINT ${table}_day_count_check,
        ADD CONSTRAINT ${table}_day_count_check CHECK (${sqlIn('day_count', DAY_COUNTS)}),
        ADD COLUMN interest_method text NOT NULL DEFAULT 'periodic',
        ADD CONSTRAINT ${table}_interest_method_check CHECK (${sqlIn('interest_method', INTEREST_METHODS)})`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['loans', 'loan_products']) {
      await q.query(`ALTER TABLE lending.${table}
        DROP CONSTRAINT ${table}_interest_method_check,
        DROP COLUMN interest_method,
        DROP CONSTRAINT ${table}_day_count_check,
        ADD CONSTRAINT ${table}_day_count_check CHECK (${sqlIn('day_count', DAY_COUNTS_BEFORE)})`);
    }
  }
}
