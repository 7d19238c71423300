/** Processes a bench starts besides the apps, and what it reads about them from /proc. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface Memory {
  /** VmRSS: resident now. */
  rssMiB: number;
  /** VmHWM: the highest resident size the process reached. */
  peakMiB: number;
}

/** RSS of a process from /proc/<pid>/status; undefined when it is gone (or not on Linux). */
export function memoryOf(pid: number | undefined): Memory | undefined {
  if (!pid) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

export class Processes {
  private readonly children: ChildProcess[] = [];

  /** Starts a child; its last output is shown if it exits with an error. */
  start(cmd: string, args: string[], env: Record<string, string> = {}): ChildProcess {
    const p = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (d: Buffer) => (output = (output + d.toString()).slice(-4000));
    p.stdout?.on('data', keep);
    p.stderr?.on('data', keep);
    p.on('exit', (code) => {
      if (code && code !== 143) process.stderr.write(`${cmd} ${args.join(' ')} exited ${code}:\n${output}\n`);
    });
    this.children.push(p);
    return p;
  }

  /** A reference hello-world (bench/shared/hello-server.ts) from the build in `distDir`. */
  helloWorld(
    distDir: string,
    kind: 'node' | 'nest' | 'node-pg',
    port: number,
    args: string[] = [],
  ): ChildProcess {
    return this.start(process.execPath, [
      '-r',
      join(distDir, 'scripts/register-paths.js'),
      join(distDir, 'bench/shared/hello-server.js'),
      kind,
      String(port),
      ...args,
    ]);
  }

  stopAll(): void {
    for (const c of this.children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  }
}

export async function waitFor(url: string, what: string, timeoutMs = 60000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(url).catch(() => undefined);
    if (res?.status === 200) return;
    if (Date.now() > deadline) throw new Error(`${what} did not answer 200 at ${url}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Clock ticks of one process and of its reaped children, from /proc/<pid>/stat. */
function ticksOf(stat: string): { ppid: number; ticks: number } {
  // Fields after the command name, which may itself hold spaces and parentheses.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // f[1] = ppid; f[11..14] = utime, stime, cutime, cstime
  return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
}

/**
 * How busy the machine was with other work while a figure was measured: the CPU the whole machine
 * used (/proc/stat) minus what this process and its descendants used (the apps, PostgreSQL and its
 * backends, the hello-worlds), as a share of every core. On a shared development box a figure taken
 * while others' tests ran says little; this puts the number next to it.
 */
export class CpuWatch {
  /** Busy ticks of the machine and of this process tree, now. */
  snapshot(): { machine: number; ours: number; idle: number } {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already inside user)
    const machine = cpu[0] + cpu[1] + cpu[2] + cpu[5] + cpu[6] + cpu[7];
    const idle = cpu[3] + cpu[4];
    const procs = new Map<number, { ppid: number; ticks: number }>();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        procs.set(Number(entry), ticksOf(readFileSync(`/proc/${entry}/stat`, 'utf8')));
      } catch {
        /* gone meanwhile */
      }
    }
    const children = new Map<number, number[]>();
    for (const [pid, p] of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
    let ours = 0;
    const stack = [process.pid];
    while (stack.length) {
      const pid = stack.pop() as number;
      ours += procs.get(pid)?.ticks ?? 0;
      stack.push(...(children.get(pid) ?? []));
    }
    return { machine, ours, idle };
  }

  /** Percent of all cores that processes outside this bench used since `from`. */
  othersSince(from: ReturnType<CpuWatch['snapshot']>): number {
    const now = this.snapshot();
    const elapsed = now.machine + now.idle - (from.machine + from.idle);
    const others = now.machine - from.machine - (now.ours - from.ours);
    return elapsed > 0 ? Math.max(0, Math.round((100 * others) / elapsed)) : 0;
  }
}
