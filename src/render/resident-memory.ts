// Resident memory of a process, read from Linux's /proc (the pool watches its render processes
// with it, and a render process reports its own peak).
import fs from 'node:fs';

const STATUS_FIELDS = { VmRSS: /VmRSS:\s+(\d+) kB/, VmHWM: /VmHWM:\s+(\d+) kB/ };

/**
 * Resident memory of a process in MB (VmRSS), or the most it has had (VmHWM), from Linux's /proc;
 * null elsewhere (or once it is gone).
 */
export function readRssMb(pid: number, field: keyof typeof STATUS_FIELDS = 'VmRSS'): number | null {
  try {
    const m = STATUS_FIELDS[field].exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}
