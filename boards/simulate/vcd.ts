// The pin trace as a Value Change Dump (IEEE 1364 §18), streamed to a file as the run goes, so
// GTKWave and PulseView open it. Time is in nanoseconds (a 16 MHz cycle is 62.5 ns, rounded
// to the nearest): PulseView turns the timescale into its sample rate, and picoseconds would
// mean 10^12 samples per simulated second. As the fs service writes: into a new temporary file
// beside the target (never opened if it exists: a FIFO or a device there can not block the
// bridge), renamed over it when the run ends, so a reader sees the old file or the whole new one.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { join } from '../../platform/path-join.js';
import { SIMULATION_LIMITS } from './limits.js';
import type { Level, PinTrace } from './pin-trace.js';


const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

export class VcdWriter {
  private readonly fd: number;
  private readonly temp: string;
  private pending: string[] = [];
  private lastTime = -1;
  private written = 0;
  truncated = false;

  constructor(
    readonly file: string,
    trace: PinTrace,
    private readonly clockHz: number,
    scope: string,
  ) {
    this.temp = join(dirname(file), `.${basename(file).slice(0, 40)}.${randomBytes(4).toString('hex')}.boardbridge-tmp`);
    this.fd = openSync(this.temp, CREATE_FLAGS, 0o666);
    const ids = trace.pins.map((_, i) => identifier(i));
    const header = [
      `$date ${new Date().toISOString()} $end`,
      '$version boardbridge simulate (avr8js) $end',
      '$timescale 1ns $end',
      `$scope module ${scope.replace(/[^A-Za-z0-9_]/g, '_')} $end`,
      ...trace.pins.map((pin, i) => `$var wire 1 ${ids[i]} ${pin.name} $end`),
      '$upscope $end',
      '$enddefinitions $end',
      '#0',
      '$dumpvars',
      ...trace.pins.map((pin, i) => `${value(pin.level)}${ids[i]}`),
      '$end',
    ];
    this.pending.push(header.join('\n') + '\n');
    trace.onChange((cycle, index, level) => this.change(cycle, ids[index], level));
  }

  private change(cycle: number, id: string, level: Level): void {
    if (this.truncated) return;
    if (this.written >= SIMULATION_LIMITS.vcdChanges) {
      this.truncated = true;
      this.pending.push(`$comment boardbridge: stopped writing after ${SIMULATION_LIMITS.vcdChanges} changes $end\n`);
      return;
    }
    const time = Math.round((cycle * 1e9) / this.clockHz);
    if (time !== this.lastTime) {
      this.pending.push(`#${time}\n`);
      this.lastTime = time;
    }
    this.pending.push(`${value(level)}${id}\n`);
    this.written++;
    if (this.pending.length > 4096) this.flush();
  }

  /** Writes the end time, so viewers show the whole run, and puts the file in place. */
  close(endCycle: number): void {
    const time = Math.round((endCycle * 1e9) / this.clockHz);
    if (time > this.lastTime) this.pending.push(`#${time}\n`);
    try {
      this.flush();
      closeSync(this.fd);
      renameSync(this.temp, this.file);
    } catch (error) {
      this.abandon();
      throw error;
    }
  }

  /** The run failed: the temporary file goes, the target is left as it was. */
  abandon(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    rmSync(this.temp, { force: true });
  }

  private flush(): void {
    writeSync(this.fd, this.pending.join(''));
    this.pending = [];
  }
}

function value(level: Level): string {
  return level === 'z' ? 'z' : String(level);
}

/** Short printable identifiers: `!`, `"`, … then two characters. */
function identifier(index: number): string {
  const chars = 94;
  let id = '';
  let n = index;
  do {
    id += String.fromCharCode(33 + (n % chars));
    n = Math.floor(n / chars) - 1;
  } while (n >= 0);
  return id;
}
