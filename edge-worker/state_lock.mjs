// The lock on a state folder: one edge worker at a time persists Durable
// Objects and KV under a folder. Two workerd processes on the same SQLite
// and KV files corrupt each other's state (intermittent 503 STORAGE_ERROR),
// so a second `npm start` on the same folder fails at once, naming the
// process that holds it.
//
// The lock is the file `freshet.lock` in the folder, created exclusively
// (O_EXCL), holding { pid, command, workerdPid, workerdCommand, since }. It is released when
// the holder stops (or exits). A lock whose process is dead (killed with
// kill -9, a crash) is stale and taken over; the workerd it had started, if
// it outlived its parent, is killed first, since it still writes into the
// folder.

import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'freshet.lock';

/** Thrown when another live process holds the lock; `holder` is the lock's content. */
export class StateFolderLocked extends Error {
  constructor(folder, holder) {
    super(`the state folder ${folder} is in use by process ${holder.pid} (${holder.command}, since ${holder.since}): ` +
          'stop that one first (Ctrl-C, or kill ' + holder.pid + '), or use another folder (FRESHET_EDGE_STATE)');
    this.name = 'StateFolderLocked';
    this.code = 'STATE_FOLDER_LOCKED';
    this.holder = holder;
  }
}

/**
 * Takes the lock on `folder` for this process.
 * @param {string} folder the state folder (created if missing)
 * @returns {{ setWorkerdPid(pid: number | null): void, release(): void, tookOver: object | null }}
 *   `tookOver` is the stale lock it replaced, if any
 * @throws {StateFolderLocked} when a live process holds it
 */
export function lockStateFolder(folder) {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, LOCK_FILE);
  const mine = { pid: process.pid, command: commandOf(process.pid) ?? process.argv.join(' '), workerdPid: null,
                 since: new Date().toISOString() };
  let tookOver = null;
  for (let attempt = 0; ; ++attempt) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, JSON.stringify(mine));
      closeSync(fd);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST' || attempt > 2) throw error;
    }
    const holder = readLock(path);
    if (holder && isAlive(holder)) throw new StateFolderLocked(folder, holder);
    if (!holder && Date.now() - modified(path) < 2_000) {
      throw new StateFolderLocked(folder, { pid: 'unknown', command: 'a process that is taking the lock right now', since: 'now' });
    }
    // Stale (or unreadable for a while: a holder killed while it wrote it): take it over,
    // and stop the workerd it left running, which still writes into the folder.
    if (holder?.workerdPid && commandOf(holder.workerdPid) === holder.workerdCommand) process.kill(holder.workerdPid, 'SIGKILL');
    tookOver = holder ?? { pid: null };
    rmSync(path, { force: true });
  }
  const onExit = () => release();
  process.on('exit', onExit);
  function release() {
    process.off('exit', onExit);
    // Only our own lock: never one a later process took over.
    if (readLock(path)?.pid === process.pid) rmSync(path, { force: true });
  }
  return {
    tookOver,
    setWorkerdPid(pid) {
      mine.workerdPid = pid;
      mine.workerdCommand = pid === null ? null : commandOf(pid);
      if (readLock(path)?.pid === process.pid) writeFileSync(path, JSON.stringify(mine));
    },
    release,
  };
}

function readLock(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/** The holder runs still: its pid exists and (where /proc tells) runs the same command, not a reused pid. */
function isAlive(holder) {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if (error.code !== 'EPERM') return false;
  }
  const command = commandOf(holder.pid);
  return command === null || command === holder.command;
}

function modified(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** The command line of a process (Linux /proc), or null where that cannot be read. */
function commandOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return null;
  }
}
