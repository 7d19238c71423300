import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import { SNIFF_BYTES, sniffContentType, type DocumentContentType } from './document-files';

export type UploadProblem = 'too_large' | 'type' | 'empty' | 'aborted';

/** Why an upload stream stopped; the service maps it to a coded error. */
export class UploadRefused extends Error {
  constructor(readonly problem: UploadProblem) {
    super(`upload refused: ${problem}`);
    this.name = 'UploadRefused';
  }
}

/**
 * Counts, hashes and sniffs the bytes on their way to storage, and fails the stream at the first
 * broken rule: past the size limit, or first bytes of a type not allowed (before the rest arrives).
 */
export class UploadInspector extends Transform {
  private readonly hash = createHash('sha256');
  private head = Buffer.alloc(0);
  size = 0;
  contentType: DocumentContentType | undefined;
  sha256 = '';

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return done(new UploadRefused('too_large'));
    if (!this.contentType && this.head.length < SNIFF_BYTES) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, SNIFF_BYTES)]).subarray(0, SNIFF_BYTES);
      if (this.head.length === SNIFF_BYTES) {
        this.contentType = sniffContentType(this.head);
        if (!this.contentType) return done(new UploadRefused('type'));
      }
    }
    this.hash.update(chunk);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (this.size === 0) return done(new UploadRefused('empty'));
    this.contentType ??= sniffContentType(this.head);
    if (!this.contentType) return done(new UploadRefused('type'));
    this.sha256 = this.hash.digest('hex');
    done();
  }
}

/**
 * Feeds a request body into an inspector without tying their lifetimes: when the inspector refuses,
 * the request is only detached (never destroyed), so the refusal can still be answered on its
 * socket; Node discards what is left of the body once the answer is sent.
 */
export function inspectRequestBody(req: IncomingMessage, maxBytes: number): UploadInspector {
  const inspector = new UploadInspector(maxBytes);
  const onData = (chunk: Buffer) => {
    if (!inspector.write(chunk)) req.pause();
  };
  const onDrain = () => req.resume();
  const onEnd = () => inspector.end();
  const onClose = () => {
    if (!req.complete) inspector.destroy(new UploadRefused('aborted'));
  };
  const detach = () => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('close', onClose);
    inspector.off('drain', onDrain);
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('close', onClose);
  inspector.on('drain', onDrain);
  inspector.once('error', detach);
  inspector.once('finish', detach);
  // Already over before anyone listened: a body read by another parser, or a client gone.
  if (req.readableEnded) inspector.end();
  else if (req.destroyed) inspector.destroy(new UploadRefused('aborted'));
  return inspector;
}
