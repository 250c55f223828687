import { readFileSync } from 'node:fs';

/**
 * CPU time from /proc/<pid>/stat (Linux), in milliseconds. The kernel reports it in USER_HZ
 * ticks, which is 100 on every Linux ABI Node runs on (`getconf CLK_TCK`); 10 ms resolution.
 */
const MS_PER_TICK = 10;

/** The stat fields after the command name (which may hold spaces and parentheses). */
function statFields(pid: number | 'self'): string[] | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null; // no /proc (not Linux), or the process is gone
  }
  // Field 3 (state) is the first after the last ')'; utime, stime, cutime, cstime are fields 14-17.
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

const field = (f: string[], n: number) => Number(f[n - 3]);

/** A process's own CPU (utime + stime), or null if it is gone (or no pid is given). */
export function processCpuMs(pid: number | null): number | null {
  if (pid === null) return null;
  const f = statFields(pid);
  return f ? (field(f, 14) + field(f, 15)) * MS_PER_TICK : null;
}

/** This process's reaped children's CPU (cutime + cstime: children it waited for, and theirs). */
export function childrenCpuMs(): number | null {
  const f = statFields('self');
  return f ? (field(f, 16) + field(f, 17)) * MS_PER_TICK : null;
}
