// `postshot serve` as an operator starts it (bin/postshot.js, a process of its own), with its
// stdout (the JSON log) and stderr kept for the test to read.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_DIR } from './fixtures.ts';

const BIN = path.join(REPO_DIR, 'bin', 'postshot.js');

export interface ServeProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Settles when the process has exited and its output is closed. */
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Starts serve with only PATH from the environment, one render process and no warm-up, plus `env`. */
export function startServe(env: Record<string, string>): ServeProcess {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { PATH: process.env.PATH ?? '', POSTSHOT_RENDER_WARMUP_MS: '0', POSTSHOT_RENDER_WORKERS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, done };
}

/** The JSON log lines written so far. */
export function logLines(out: string): Array<Record<string, unknown>> {
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}
