import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImagingTimeoutError } from './errors.ts';
import { runTool } from './run-tool.ts';

/** Running, not a zombie: an orphan killed here may wait for a container init that never reaps it. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function grandchildPid(run: Promise<unknown>, stdoutFile: string): Promise<number> {
  void run.catch(() => undefined);
  for (let i = 0; i < 500; i++) {
    const text = await readFile(stdoutFile, 'utf8').catch(() => '');
    if (text.trim()) return Number(text.trim());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('grandchild did not start');
}

describe('runTool', () => {
  it('passes arguments without a shell', async () => {
    const result = await runTool('printf', ['%s|', 'a b', '$(echo x)', '[rgb]'], { timeoutMs: 5000 });
    expect(result).toMatchObject({ stdout: 'a b|$(echo x)|[rgb]|', exitCode: 0 });
  });

  it('feeds a range of a file to the tool, and ends quietly when the tool stops reading early', async () => {
    const file = path.join(os.tmpdir(), `run-tool-test-${process.pid}-stdin`);
    // Past the pipe's and the read stream's buffers, so the feeding is cut off while it goes on.
    await writeFile(file, Buffer.alloc(8 * 1024 * 1024, '0123456789'));
    try {
      const range = { path: file, start: 3, length: 4_000_000 };
      const counted = await runTool('wc', ['-c'], { timeoutMs: 5000, stdin: range });
      expect(counted.stdout.trim()).toBe('4000000');
      const head = await runTool('head', ['-c', '4'], { timeoutMs: 5000, stdin: range });
      expect(head).toMatchObject({ stdout: '3456', exitCode: 0 });
    } finally {
      await rm(file, { force: true });
    }
  });

  it('runs the tool and the threads it starts at the niceness asked for', async () => {
    // Field 19 of /proc/<pid>/stat is the niceness; `nice -n` adds to this process's own.
    const script = 'cut -d" " -f19 /proc/self/stat; (cut -d" " -f19 /proc/self/stat)';
    const result = await runTool('sh', ['-c', script], { timeoutMs: 5000, niceness: 10 });
    const expected = String(Math.min(19, os.getPriority() + 10));
    expect(result.stdout.trim().split('\n')).toEqual([expected, expected]);
  });

  it.runIf(existsSync('/proc/self/autogroup'))(
    'lowers the priority of the session the tool leads, where the kernel schedules sessions as groups',
    async () => {
      // The session's niceness is set just after the start: read it a moment later.
      const result = await runTool('sh', ['-c', 'sleep 0.3; cat /proc/self/autogroup'], {
        timeoutMs: 5000,
        niceness: 10,
      });
      expect(result.stdout).toMatch(/ nice 10$/m);
    },
  );

  it('kills the whole process group on timeout', async () => {
    const file = `/tmp/run-tool-test-${process.pid}-timeout`;
    const run = runTool('sh', ['-c', `sleep 30 & echo $! > ${file}; wait`], { timeoutMs: 300 });
    const pid = await grandchildPid(run, file);
    await expect(run).rejects.toBeInstanceOf(ImagingTimeoutError);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(alive(pid)).toBe(false);
    await rm(file, { force: true });
  });

  it('kills the process group on abort', async () => {
    const controller = new AbortController();
    const file = `/tmp/run-tool-test-${process.pid}-abort`;
    const run = runTool('sh', ['-c', `sleep 30 & echo $! > ${file}; wait`], {
      timeoutMs: 10_000,
      signal: controller.signal,
    });
    const pid = await grandchildPid(run, file);
    controller.abort(new Error('job cancelled'));
    await expect(run).rejects.toThrow('job cancelled');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(alive(pid)).toBe(false);
    await rm(file, { force: true });
  });

  it('kills vips itself on timeout', async () => {
    // A 100k² black image takes far longer than 100 ms to write, so the timer must end it.
    const started = Date.now();
    await expect(
      runTool('vips', ['black', `/tmp/run-tool-test-${process.pid}.v`, '100000', '100000'], { timeoutMs: 100 }),
    ).rejects.toBeInstanceOf(ImagingTimeoutError);
    expect(Date.now() - started).toBeLessThan(2000);
    await rm(`/tmp/run-tool-test-${process.pid}.v`, { force: true });
  });

  it('ends the tool with the process that started it, even one killed by SIGKILL', async () => {
    const file = `/tmp/run-tool-test-${process.pid}-orphan`;
    // The tool is exec'd by the shell it writes the pid of, so that pid is the tool's own.
    const script = `
      import { runTool } from './apps/server/src/imaging/run-tool.ts';
      await runTool('sh', ['-c', 'echo $$ > ${file}; exec sleep 30'], { timeoutMs: 60000, niceness: 10 });`;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../../../..'),
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => parent.once('exit', resolve));
    const pid = await grandchildPid(exited, file);
    expect(alive(pid)).toBe(true);
    parent.kill('SIGKILL');
    await exited;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alive(pid)).toBe(false);
    await rm(file, { force: true });
  }, 30_000);
});
