/**
 * GET figures taken with wrk (Debian `wrk`, installed by scripts/bench.sh) instead of the Node client:
 * one wrk thread (C code) sends ~60k req/s to a bare Node hello-world on this machine where the Node
 * client of load.ts tops out near 15k, so a fast server is measured rather than the client. The same
 * BENCH_SECONDS, BENCH_WARMUP_SECONDS and BENCH_CONCURRENCY apply; any non-2xx answer or socket error
 * counts as an error, like load.ts.
 */
import { execFile, execFileSync } from 'node:child_process';
import { CONCURRENCY, SECONDS, WARMUP_SECONDS, print, type Figure, type Watch } from './load';

/** wrk's path when it is installed and BENCH_CLIENT is not `node`. */
export function wrkPath(): string | undefined {
  if (process.env.BENCH_CLIENT === 'node') return undefined;
  try {
    return execFileSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60000 };

/** `572.89us` -> 0.57289 (ms). */
function ms(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  return m ? Number(m[1]) * UNIT_MS[m[2]] : NaN;
}

export interface WrkResult {
  rps: number;
  requests: number;
  p50: number;
  p99: number;
  /** Non-2xx/3xx answers plus socket errors. */
  errors: number;
}

/** Parses `wrk --latency` output. */
export function parseWrk(out: string): WrkResult {
  const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? NaN);
  const pct = (p: string) => ms(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? '');
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socketErrors = socket ? socket.slice(1).reduce((s, n) => s + Number(n), 0) : 0;
  return {
    rps: Math.round(num(/Requests\/sec:\s+([\d.]+)/)),
    requests: num(/(\d+) requests in/),
    p50: pct('50'),
    p99: pct('99'),
    errors: (Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) || 0) + socketErrors,
  };
}

function wrk(bin: string, url: URL, headers: Record<string, string>, seconds: number): Promise<WrkResult> {
  const args = ['-t1', `-c${CONCURRENCY}`, `-d${seconds}s`, '--latency'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  args.push(url.toString());
  return new Promise((resolve, reject) =>
    execFile(bin, args, { encoding: 'utf8' }, (err, stdout, stderr) =>
      err ? reject(new Error(`wrk failed: ${stderr || err.message}`)) : resolve(parseWrk(stdout)),
    ),
  );
}

/** A warm-up of WARMUP_SECONDS, then SECONDS measured; printed like load.ts's figures. */
export async function measureWithWrk(
  bin: string,
  name: string,
  url: URL,
  headers: Record<string, string> = {},
  watch?: Watch,
): Promise<Figure> {
  if (WARMUP_SECONDS > 0) await wrk(bin, url, headers, WARMUP_SECONDS);
  const noted = watch?.();
  const r = await wrk(bin, url, headers, SECONDS);
  if (!Number.isFinite(r.rps) || !Number.isFinite(r.requests))
    throw new Error(`wrk gave no figure for ${name}`);
  const statuses: Record<string, number> = { '2xx': r.requests - r.errors };
  if (r.errors) statuses.error = r.errors;
  print(
    `${name.padEnd(40)} ${String(r.rps).padStart(6)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  ` +
      `(wrk, ${r.requests} requests, ${CONCURRENCY} concurrent, statuses ${JSON.stringify(statuses)}` +
      `${noted ? `, ${noted()}` : ''})`,
  );
  if (r.errors) print(`  ! ${name}: ${r.errors} non-2xx answers or socket errors`);
  return { name, rps: r.rps, p50: r.p50, p99: r.p99, requests: r.requests, statuses, errors: r.errors };
}
