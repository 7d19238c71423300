import type { Request, Response } from 'express';
import { DomainError } from '@platform/envelope';
import { canonicalJson, idempotentRequestOf, requestHash } from './idempotent-request';

const req = (headers: Record<string, string>, body: unknown, path = '/Loans/MakePayment') =>
  ({
    headers,
    body,
    query: {},
    method: 'POST',
    path: path.toLowerCase(),
    route: { path },
  }) as unknown as Request;
const res = { setHeader: jest.fn() } as unknown as Response;

describe('an idempotent request', () => {
  it('is the same request whatever the order of its keys, and another with another value or route', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    const h = (body: unknown, route = 'POST /Loans/MakePayment') => requestHash('POST', route, body, {});
    expect(h({ loanId: 'l', amount: 1 })).toBe(h({ amount: 1, loanId: 'l' }));
    expect(h({ loanId: 'l', amount: 1 })).not.toBe(h({ loanId: 'l', amount: 2 }));
    expect(h({ loanId: 'l' })).not.toBe(h({ loanId: 'l' }, 'POST /Loans/WriteOffLoan'));
    // The route as declared, whatever case the caller used.
    expect(h({ a: 1 }, 'POST /loans/makepayment')).toBe(h({ a: 1 }));
  });

  it('requires a key of visible ASCII, and marks a replay', () => {
    const code = (headers: Record<string, string>) => {
      try {
        idempotentRequestOf(req(headers, {}), res);
        return 'ok';
      } catch (err) {
        return (err as DomainError).reason;
      }
    };
    expect(code({})).toBe('IDEMPOTENCY_KEY_MISSING');
    expect(code({ 'idempotency-key': '' })).toBe('IDEMPOTENCY_KEY_MISSING');
    expect(code({ 'idempotency-key': 'a b' })).toBe('IDEMPOTENCY_KEY_INVALID');
    expect(code({ 'idempotency-key': 'k'.repeat(256) })).toBe('IDEMPOTENCY_KEY_INVALID');
    expect(code({ 'idempotency-key': 'ключ' })).toBe('IDEMPOTENCY_KEY_INVALID');
    const op = idempotentRequestOf(req({ 'idempotency-key': 'pay-1' }, { amount: 1 }), res);
    expect([op.key, op.route]).toEqual(['pay-1', 'POST /Loans/MakePayment']);
    op.replayed();
    expect(res.setHeader).toHaveBeenCalledWith('Idempotent-Replayed', 'true');
  });
});
