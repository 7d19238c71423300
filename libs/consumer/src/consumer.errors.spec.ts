import { HandlerFailure, isConnectionFailure } from './consumer.errors';

describe('isConnectionFailure', () => {
  it.each([
    [{ code: 'ECONNREFUSED' }],
    [{ code: '08006' }],
    [{ code: '57P01' }],
    [{ code: '53300' }],
    [new Error('Connection terminated unexpectedly')],
    [new Error('timeout exceeded when trying to connect')],
    // TypeORM wraps the driver's error.
    [{ message: 'query failed', driverError: { code: '08003' } }],
    [{ message: 'wrapped', cause: { code: 'ECONNRESET' } }],
  ])('%j is an outage', (err) => expect(isConnectionFailure(err)).toBe(true));

  it.each([
    [new Error('boom')],
    [{ code: '23505', message: 'duplicate key' }],
    [{ code: '22P02' }],
    [{ code: '40001' }],
    [null],
    ['a string'],
  ])('%j is not', (err) => expect(isConnectionFailure(err)).toBe(false));

  it('survives a cause cycle', () => {
    const a: { cause?: unknown; message: string } = { message: 'a' };
    a.cause = { message: 'b', cause: a };
    expect(isConnectionFailure(a)).toBe(false);
  });

  it("counts a handler's own socket failure (an HTTP call) against the message, but not PostgreSQL's", () => {
    const http = Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' });
    expect(isConnectionFailure(new HandlerFailure(http))).toBe(false);
    expect(isConnectionFailure(http)).toBe(true);
    expect(
      isConnectionFailure(new HandlerFailure({ code: '57P01', message: 'terminating connection' })),
    ).toBe(true);
    expect(isConnectionFailure(new HandlerFailure(new Error('Connection terminated unexpectedly')))).toBe(
      true,
    );
  });
});
