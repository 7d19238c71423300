import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  resolvePublicTarget,
  PublicTargetError,
  type PublicTarget,
  type PublicTargetPolicy,
} from '@platform/network';
import type { ProbeResult } from './check-outcome';

/** Enough of a body to find a health page's marker; the rest is never read. */
export const MAX_PROBE_BODY_BYTES = 64 * 1024;

export interface ProbeRequest {
  url: string;
  method: 'GET' | 'HEAD';
  timeoutMs: number;
}

/**
 * One probe. The URL is checked again by the SSRF guard after DNS resolution at every run (a public name
 * may start answering a private address), the socket connects to the approved address (no second
 * lookup), redirects are never followed (a 3xx is a status like any other), and the whole exchange,
 * DNS included, is bounded by the timeout. Never throws: a failure is a result.
 */
export async function probe(req: ProbeRequest, policy: PublicTargetPolicy): Promise<ProbeResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<ProbeResult>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          statusCode: null,
          error: `timeout after ${req.timeoutMs} ms`,
          latencyMs: elapsed(),
          body: null,
        }),
      req.timeoutMs,
    );
  });
  const abort = new AbortController();
  const attempt = (async (): Promise<ProbeResult> => {
    try {
      const target = await resolvePublicTarget(req.url, { policy });
      const { statusCode, body } = await send(target, req.method, abort.signal);
      return { statusCode, error: null, latencyMs: elapsed(), body };
    } catch (err) {
      const message =
        err instanceof PublicTargetError
          ? `target refused: ${err.reason}`
          : ((err as { code?: string }).code ?? (err as Error).message);
      return { statusCode: null, error: String(message).slice(0, 200), latencyMs: elapsed(), body: null };
    }
  })();
  try {
    return await Promise.race([attempt, deadline]);
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

function pinnedLookup(target: PublicTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else callback(null, target.address, target.family);
  };
}

function send(
  target: PublicTarget,
  method: 'GET' | 'HEAD',
  signal: AbortSignal,
): Promise<{ statusCode: number; body: string | null }> {
  return new Promise((resolve, reject) => {
    const https = target.url.protocol === 'https:';
    const literal = isIP(target.hostname) !== 0;
    const req = (https ? httpsRequest : httpRequest)(
      {
        protocol: target.url.protocol,
        hostname: target.hostname,
        port: target.port,
        path: `${target.url.pathname}${target.url.search}`,
        method,
        agent: false,
        signal,
        lookup: pinnedLookup(target),
        ...(https && !literal ? { servername: target.hostname } : {}),
        headers: { 'user-agent': 'platform-public-status-monitor/1', accept: '*/*' },
      },
      (res) => (method === 'HEAD' ? drain(res, resolve) : readBody(res, resolve)),
    );
    req.on('error', reject);
    req.end();
  });
}

function drain(res: IncomingMessage, done: (r: { statusCode: number; body: string | null }) => void): void {
  res.resume();
  done({ statusCode: res.statusCode ?? 0, body: null });
}

function readBody(
  res: IncomingMessage,
  done: (r: { statusCode: number; body: string | null }) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    res.destroy();
    done({ statusCode: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
  };
  res.on('data', (c: Buffer) => {
    chunks.push(c);
    size += c.length;
    if (size >= MAX_PROBE_BODY_BYTES) finish();
  });
  res.on('end', finish);
  res.on('error', finish);
}
