// What Linux's /proc tells about a child process: CPU time and resident memory. Every reader
// answers undefined where /proc is not available (macOS, Windows) or the process has gone.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';

const runFile = promisify(execFile);
const LINUX_DEFAULT_CLK_TCK = 100;

/** @returns {Promise<number>} the unit of the CPU times in /proc/<pid>/stat */
export async function clockTicksPerSecond() {
  try {
    const { stdout } = await runFile('getconf', ['CLK_TCK']);
    return Number(stdout.trim()) || LINUX_DEFAULT_CLK_TCK;
  } catch {
    return LINUX_DEFAULT_CLK_TCK;
  }
}

/**
 * User and system CPU time `pid` has used so far, in seconds. Synchronous so that it can be read
 * at the exact edges of a measured window.
 * @param {number} pid
 * @param {number} ticksPerSecond from {@link clockTicksPerSecond}
 * @returns {number | undefined}
 */
export function cpuSecondsOf(pid, ticksPerSecond) {
  try {
    // The command name in field 2 may contain spaces and parentheses; fields are counted after it.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/**
 * Resident memory of `pid` now (VmRSS) and at its peak (VmHWM), in bytes.
 * @param {number} pid
 * @returns {{rssBytes: number, peakRssBytes: number} | undefined}
 */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
    const hwm = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status)?.[1];
    if (rss === undefined || hwm === undefined) return undefined;
    return { rssBytes: Number(rss) * 1024, peakRssBytes: Number(hwm) * 1024 };
  } catch {
    return undefined;
  }
}

/**
 * Lowers the peak (VmHWM) of `pid` to its current resident memory, so that the next reading is
 * the peak since now (Linux ≥ 4.0, own processes only). Returns whether that worked.
 * @param {number} pid
 */
export function resetPeakRss(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
