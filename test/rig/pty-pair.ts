// A linked pair of real ttys from socat: the hub opens `device`, the test plays the board on
// `board`. Killing socat is an unplug; starting it again with the same names is a re-plug.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PtyPair {
  /** The end the code under test opens, like /dev/ttyACM0. */
  device: string;
  /** The other end, standing for the board. */
  board: string;
  socat: ChildProcess;
  /** Kills socat: both ends vanish, as when a cable is pulled. */
  unplug(): Promise<void>;
  /** Starts socat again with the same link names. */
  replug(): Promise<void>;
}

export async function ptyPair(dir = mkdtempSync(join(tmpdir(), 'bb-pty-'))): Promise<PtyPair> {
  const device = join(dir, 'ttyACM0');
  const board = join(dir, 'board');
  const pair: PtyPair = {
    device,
    board,
    socat: await startSocat(device, board),
    async unplug() {
      await stop(pair.socat);
    },
    async replug() {
      pair.socat = await startSocat(device, board);
    },
  };
  return pair;
}

async function startSocat(device: string, board: string): Promise<ChildProcess> {
  const socat = spawn('socat', [`pty,raw,echo=0,link=${device}`, `pty,raw,echo=0,link=${board}`], {
    stdio: 'ignore',
  });
  for (let tries = 0; tries < 200 && !(existsSync(device) && existsSync(board)); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  if (!existsSync(device)) throw new Error(`socat did not create ${device}; is socat installed?`);
  return socat;
}

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
