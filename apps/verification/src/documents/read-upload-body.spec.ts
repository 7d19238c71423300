import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { DomainError } from '@platform/envelope';
import { PortalError, portalError } from '../portal/portal.errors';
import { readUploadBody } from './read-upload-body';

const readBody = (req: IncomingMessage, max: number) =>
  readUploadBody(req, max, () => portalError(PortalError.UPLOAD_ABORTED));

/** A request whose body arrives in `chunks`, with an optional declared Content-Length. */
function requestOf(chunks: Buffer[], contentLength?: number): IncomingMessage {
  const req = Readable.from(chunks) as unknown as IncomingMessage;
  req.headers = contentLength === undefined ? {} : { 'content-length': String(contentLength) };
  return req;
}

const refusal = async (p: Promise<Buffer>) => {
  try {
    await p;
  } catch (e) {
    const err = e as DomainError;
    return { reason: err.reason, status: err.status, args: err.args };
  }
  return 'read';
};

describe("readUploadBody (the portal upload's abort reason)", () => {
  const max = 1000;

  it('reads a body of exactly the limit', async () => {
    const body = await readBody(requestOf([Buffer.alloc(600), Buffer.alloc(400)], 1000), max);
    expect(body.length).toBe(1000);
  });

  it("refuses a declared length one byte over with the documents area's DOCUMENT_TOO_LARGE", async () => {
    expect(await refusal(readBody(requestOf([Buffer.alloc(1001)], 1001), max))).toEqual({
      reason: 'DOCUMENT_TOO_LARGE',
      status: 413,
      args: { maxBytes: 1000 },
    });
  });

  it('refuses a body without a length once it passes the limit by one byte', async () => {
    expect(await refusal(readBody(requestOf([Buffer.alloc(600), Buffer.alloc(401)]), max))).toEqual({
      reason: 'DOCUMENT_TOO_LARGE',
      status: 413,
      args: { maxBytes: 1000 },
    });
  });
});
