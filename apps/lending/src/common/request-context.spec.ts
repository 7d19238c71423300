import type { IncomingMessage, ServerResponse } from 'node:http';
import { currentRequestId, requestContextMiddleware } from './request-context';

const req = (requestId: string) => ({ requestId, headers: {} }) as unknown as IncomingMessage;
const res = {} as ServerResponse;
const tick = () => new Promise((r) => setTimeout(r, 1));

describe('request context', () => {
  it('gives what runs after the middleware its request id, across awaits, and nothing outside a request', async () => {
    expect(currentRequestId()).toBeNull();
    const seen: (string | null)[] = [];
    const handle = (id: string) =>
      new Promise<void>((done) =>
        requestContextMiddleware(req(id), res, () => {
          void (async () => {
            await tick();
            seen.push(currentRequestId());
            await tick();
            seen.push(currentRequestId());
            done();
          })();
        }),
      );
    // Two requests interleaved: each keeps its own id.
    await Promise.all([handle('req-a'), handle('req-b')]);
    expect(seen.sort()).toEqual(['req-a', 'req-a', 'req-b', 'req-b']);
    expect(currentRequestId()).toBeNull();
  });
});
