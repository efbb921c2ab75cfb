// What the benches read of a process tree from Linux's /proc: the service and the processes
// below it (render processes, and esbuild while it bundles).
import fs from 'node:fs';
import { readRssMb } from '../src/render/resident-memory.ts';

/** A /proc file's text, or '' once the process is gone. */
export function readProc(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** A process and every process below it, root first (the children of all its threads). */
export function processTree(root: number): number[] {
  const pids = [root];
  for (let i = 0; i < pids.length; i++) {
    let tasks: string[] = [];
    try {
      tasks = fs.readdirSync(`/proc/${pids[i]}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      const kids = readProc(`/proc/${pids[i]}/task/${task}/children`).trim();
      if (kids) pids.push(...kids.split(/\s+/).map(Number));
    }
  }
  return pids;
}

/** CPU time (user + system, all threads) of a process and those below it, in ms (10 ms ticks). */
export function treeCpuMs(root: number): number {
  return processTree(root).reduce((sum, pid) => {
    const fields = readProc(`/proc/${pid}/stat`).split(') ')[1]?.split(' ');
    return fields ? sum + (Number(fields[11]) + Number(fields[12])) * 10 : sum;
  }, 0);
}

/** Resident MB of a process and those below it, summed (shared pages count in each). */
export function treeRssMb(root: number): number {
  return processTree(root).reduce((sum, pid) => sum + (readRssMb(pid) ?? 0), 0);
}
