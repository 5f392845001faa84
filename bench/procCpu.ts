/**
 * CPU time of a headless Chromium's whole process tree, read from /proc (Linux only; elsewhere every figure is NaN).
 *
 * Why CPU time: on a shared 2-core machine a page load's wall time mostly measures how long its 31 renderer processes
 * waited for a core, which swings by ±15 % between two identical browsers (the A/A control). The CPU time the browser
 * spent on the load does not include the waiting, so what an installed extension adds to a load shows up there
 * even when the wall time is noise.
 *
 * A Chromium's processes are the browser process and its descendants (zygotes, renderers, GPU/network utilities,
 * an extension's service worker). Renderers of closed tabs exit; their time moves into the cutime/cstime of the
 * process that reaped them, which is in the tree too, so the sum over live processes of utime+stime+cutime+cstime
 * counts the dead ones once.
 */
import { readFileSync, readdirSync } from 'node:fs';

/** Kernel clock ticks per second: 100 on every Linux the bench runs on (USER_HZ). */
const MS_PER_TICK = 10;

interface Proc {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime, in ms. */
  cpuMs: number;
  cmdline: string;
}

function readProc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may itself hold spaces and parentheses: state is field 3.
    const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    return { pid, ppid: Number(f[1]), cpuMs: ticks * MS_PER_TICK, cmdline };
  } catch {
    return undefined; // exited meanwhile
  }
}

function allProcs(): Proc[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  return names
    .filter((n) => /^\d+$/.test(n))
    .map((n) => readProc(Number(n)))
    .filter((p): p is Proc => !!p);
}

/** A browser's process tree, found by its profile directory (each bench browser has its own). */
export class BrowserCpu {
  #root: number | undefined;

  constructor(private readonly profileDir: string) {}

  /** The browser process: the one with the profile on its command line and no `--type=`. */
  #findRoot(procs: Proc[]): number | undefined {
    this.#root ??= procs.find((p) => p.cmdline.includes(this.profileDir) && !p.cmdline.includes('--type='))?.pid;
    return this.#root;
  }

  /** CPU ms so far: the whole tree, and the part in extension processes (an extension's service worker). */
  read(): { total: number; extension: number } {
    const procs = allProcs();
    const root = this.#findRoot(procs);
    if (root === undefined) return { total: NaN, extension: NaN };
    const children = new Map<number, Proc[]>();
    for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
    let total = 0;
    let extension = 0;
    const stack = procs.filter((p) => p.pid === root);
    while (stack.length) {
      const p = stack.pop()!;
      total += p.cpuMs;
      if (p.cmdline.includes('--extension-process')) extension += p.cpuMs;
      stack.push(...(children.get(p.pid) ?? []));
    }
    return { total, extension };
  }
}
