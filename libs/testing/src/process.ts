import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

export interface JsonLineProcess {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  waitForLine(
    predicate: (l: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

/**
 * Runs a TypeScript entry point in a separate Node process (ts-node, with the @platform aliases) and
 * collects the JSON lines it prints.
 */
export function spawnTsProcess(entry: string, env: NodeJS.ProcessEnv): JsonLineProcess {
  const child = spawn(
    process.execPath,
    [
      '-r',
      'ts-node/register/transpile-only',
      '-r',
      resolve(ROOT, 'scripts/register-paths.js'),
      resolve(ROOT, entry),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, ...env, TS_NODE_PROJECT: resolve(ROOT, 'scripts/tsconfig.typecheck.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  let buffer = '';
  child.stdout?.on('data', (d: Buffer) => {
    buffer += d.toString();
    let i: number;
    while ((i = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, i).trim();
      buffer = buffer.slice(i + 1);
      if (line.startsWith('{')) {
        try {
          lines.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          /* a log line that only looks like JSON */
        }
      }
    }
  });
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return {
    child,
    lines,
    async waitForLine(predicate, timeoutMs = 30000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.find(predicate);
        if (found) return found;
        if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}: ${stderr}`);
        if (Date.now() > deadline)
          throw new Error(`no matching line in ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
