// One run of a compiled sketch on a simulated AVR (the ATmega328P unless `mcu` names another):
// exact cycle counts for time, scripted inputs applied at their cycle, serial output streamed as
// the USART sends it (the other USARTs' kept apart), and the run ends at the simulated time, on
// a matching line, when the sketch halts, or at the wall-clock limit (reported as such).
import { LevelBuckets, type LevelChart } from './level-chart.js';
import { PinState } from 'avr8js';
import { AvrMachine } from './avr-machine.js';
import type { PinInput } from './inputs.js';
import type { McuConfig } from './mcu-config.js';
import { PinTrace, type Level, type PinChange, type PinSummary } from './pin-trace.js';
import type { PinPort } from './variant-ports.js';
import type { BoundedRegex } from '../bounded-regex.js';
import { SIMULATION_LIMITS } from './limits.js';

export interface SimulationOptions {
  hex: string;
  clockHz: number;
  /** The chip (mcu-config.ts); the ATmega328P when not given. */
  mcu?: McuConfig;
  pins: Array<PinPort & { name: string }>;
  forSeconds: number;
  until?: BoundedRegex;
  serialIn?: string;
  inputs?: PinInput[];
  /** Wall-clock limit in milliseconds. */
  wallLimitMs: number;
  /** How many pin changes the returned trace keeps (the summary counts them all). */
  traceLimit: number;
  onSerial?(text: string): void;
  /** Called before the run starts, to attach e.g. a VCD writer. */
  onTrace?(trace: PinTrace): void;
  /** Parts outside the chip (boards/circuit), attached through ChipIo. */
  outside?: ChipAttachment;
  signal?: AbortSignal;
}

export type StopReason = 'time' | 'until' | 'halted' | 'wall-limit' | 'aborted' | 'scenario';

export type PinDrive = 'high' | 'low' | 'input' | 'pullup';

/** What the outside of the chip sees of it and does to it, by Arduino pin number. */
export interface ChipIo {
  readonly clockHz: number;
  cycles(): number;
  /** The chip's own drive on a pin. */
  drive(pin: number): PinDrive;
  /** The level the outside puts on a pin; undefined leaves it to the chip (its pull-up, or floating). */
  setInput(pin: number, level: 0 | 1 | undefined): void;
  setAnalog(channel: number, volts: number): void;
  /** Runs `callback` when the simulated cycle count reaches `cycle`. */
  at(cycle: number, callback: () => void): void;
  /** Ends the current slice at this instruction, so afterSlice runs at this moment. */
  pause(): void;
  writeSerial(bytes: number[]): void;
}

export interface ChipAttachment {
  attach(io: ChipIo): void;
  /** The chip's drive of `pin` changed. */
  onDrive?(pin: number, cycle: number): void;
  onSerial?(text: string): void;
  /** After each slice of simulated time: a stop ends the run; while a promise is pending the run waits (its wall time not counted). */
  afterSlice?(): { reason: StopReason; detail: string } | undefined | Promise<{ reason: StopReason; detail: string } | undefined>;
}

/** Serial text kept in the result; the rest streams through onSerial only. */

export interface SimulationResult {
  /** build.mcu of the simulated chip. */
  mcu: string;
  clockHz: number;
  cycles: number;
  simulatedSeconds: number;
  wallSeconds: number;
  stop: { reason: StopReason; detail: string };
  serial: { text: string; bytes: number; truncated: boolean; baud?: number };
  /** The chip's other USARTs (`Serial1`, …) that sent anything, each kept like `serial`. */
  otherSerial?: Array<{ name: string; text: string; bytes: number; truncated: boolean; baud?: number }>;
  pins: PinSummary[];
  trace: { changes: PinChange[]; dropped: number };
  /** The whole run's levels per time bucket, for a chart (the trace lists only the first changes). */
  levels: LevelChart;
  /** What the run could not do as asked, e.g. a scripted level on a pin the sketch drives as an output. */
  notes?: string[];
}

export async function simulate(options: SimulationOptions): Promise<SimulationResult> {
  const machine = new AvrMachine(options.hex, options.clockHz, options.mcu);
  const { cpu, usart, adc } = machine;
  const trace = new PinTrace(options.pins.map((p) => ({ number: p.pin, name: p.name, level: 'z' as Level })), options.clockHz, options.traceLimit);
  const levels = new LevelBuckets(trace, options.clockHz);
  options.onTrace?.(trace);
  const driven = new Map<number, 0 | 1>();
  const notes: string[] = [];
  const levelOf = (index: number): Level => {
    const { port, bit, pin } = options.pins[index];
    const state = machine.ports.get(port)!.pinState(bit);
    if (state === PinState.High) return 1;
    if (state === PinState.Low) return 0;
    return driven.get(pin) ?? (state === PinState.InputPullUp ? 1 : 'z');
  };
  const outside = options.outside;
  const drives: PinState[] = options.pins.map(() => PinState.Input);
  for (const name of machine.ports.keys()) {
    const indices = options.pins.flatMap((p, i) => (p.port === name ? [i] : []));
    const port = machine.ports.get(name)!;
    port.addListener(() => {
      for (const i of indices) {
        const { bit, pin } = options.pins[i];
        const state = port.pinState(bit);
        // avr8js reads an input's PIN bit from the outside level only: a pull-up with nothing
        // driving the pin has to be that outside level, as on the chip.
        if (!driven.has(pin) && state === PinState.InputPullUp) port.setPin(bit, true);
        trace.record(cpu.cycles, i, levelOf(i));
        if (state !== drives[i]) {
          drives[i] = state;
          outside?.onDrive?.(pin, cpu.cycles);
        }
      }
    });
  }

  const applyInput = (input: PinInput) => {
    const index = options.pins.findIndex((p) => p.pin === input.pin);
    if (input.kind === 'analog') {
      adc.channelValues[input.channel] = (input.value / 1024) * adc.avcc;
      return;
    }
    driven.set(input.pin, input.level);
    const { port, bit } = options.pins[index];
    const state = machine.ports.get(port)!.pinState(bit);
    if (state === PinState.High || state === PinState.Low) {
      notes.push(
        `--pin ${input.name}=${input.level ? 'high' : 'low'}@${input.atSeconds}s: the sketch drives ${input.name} ${state === PinState.High ? 'high' : 'low'} as an output then, so the scripted level has no effect while it stays an output`,
      );
    }
    machine.ports.get(port)!.setPin(bit, input.level === 1);
    trace.record(cpu.cycles, index, levelOf(index));
  };
  for (const input of options.inputs ?? []) {
    const at = Math.round(input.atSeconds * options.clockHz);
    if (at === 0) applyInput(input);
    else cpu.addClockEvent(() => applyInput(input), at);
  }

  let stop: { reason: StopReason; detail: string } | undefined;
  let paused = false;
  let serialText = '';
  let serialBytes = 0;
  let line = '';
  const decoder = new TextDecoder();
  usart.onByteTransmit = (byte) => {
    serialBytes++;
    const text = decoder.decode(new Uint8Array([byte]), { stream: true });
    if (serialText.length < SIMULATION_LIMITS.serialChars) serialText += text;
    options.onSerial?.(text);
    outside?.onSerial?.(text);
    if (!options.until || stop) return;
    if (text === '\n') {
      if (options.until.test(line.replace(/\r$/, ''))) stop = { reason: 'until', detail: `the line "${line.replace(/\r$/, '')}" matched ${options.until}` };
      line = '';
    } else if (line.length < 4096) line += text;
  };
  const others = machine.usarts.slice(1).map(({ name, usart: other }) => {
    const kept = { name, text: '', bytes: 0, truncated: false, usart: other, decoder: new TextDecoder() };
    other.onByteTransmit = (byte) => {
      kept.bytes++;
      if (kept.text.length < SIMULATION_LIMITS.serialChars) kept.text += kept.decoder.decode(new Uint8Array([byte]), { stream: true });
      else kept.truncated = true;
    };
    return kept;
  });
  const toSend = [...Buffer.from(unescapeSerial(options.serialIn ?? ''))];
  let sentBytes = 0;
  const feed = () => {
    if (toSend.length > 0 && usart.rxEnable && !usart.rxBusy && usart.writeByte(toSend[0])) {
      toSend.shift();
      sentBytes++;
    }
  };
  usart.onRxComplete = feed;
  const indexOf = new Map(options.pins.map((p, i) => [p.pin, i]));
  const portOf = (pin: number) => {
    const { port, bit } = options.pins[indexOf.get(pin)!];
    return { port: machine.ports.get(port)!, bit };
  };
  outside?.attach({
    clockHz: options.clockHz,
    cycles: () => cpu.cycles,
    drive: (pin) => {
      const { port, bit } = portOf(pin);
      const state = port.pinState(bit);
      return state === PinState.High ? 'high' : state === PinState.Low ? 'low' : state === PinState.InputPullUp ? 'pullup' : 'input';
    },
    setInput: (pin, level) => {
      const { port, bit } = portOf(pin);
      if (level === undefined) {
        driven.delete(pin);
        if (port.pinState(bit) === PinState.InputPullUp) port.setPin(bit, true);
      } else {
        driven.set(pin, level);
        port.setPin(bit, level === 1);
      }
      trace.record(cpu.cycles, indexOf.get(pin)!, levelOf(indexOf.get(pin)!));
    },
    setAnalog: (channel, volts) => {
      adc.channelValues[channel] = volts;
    },
    at: (cycle, callback) => cpu.addClockEvent(callback, Math.max(1, cycle - cpu.cycles)),
    pause: () => {
      paused = true;
    },
    writeSerial: (bytes) => {
      toSend.push(...bytes);
      feed();
    },
  });

  const endCycle = Math.round(options.forSeconds * options.clockHz);
  const chunk = Math.max(1, Math.round(options.clockHz / 1000));
  const started = performance.now();
  let lastYield = started;
  let waited = 0;
  const halt = () => stop !== undefined || paused;
  while (!stop) {
    if (outside?.afterSlice) {
      paused = false;
      const before = performance.now();
      const asked = outside.afterSlice();
      const answer = asked instanceof Promise ? await asked : asked;
      if (asked instanceof Promise) {
        waited += performance.now() - before;
        lastYield = performance.now();
      }
      if (answer) {
        stop = answer;
        break;
      }
    }
    if (cpu.cycles >= endCycle) {
      stop = { reason: 'time', detail: `${options.forSeconds} s of simulated time passed` };
      break;
    }
    feed();
    machine.runUntil(Math.min(endCycle, cpu.cycles + chunk), halt);
    if (stop) break;
    if (machine.halted) {
      stop = { reason: 'halted', detail: `the sketch stopped (interrupts off, waiting forever at 0x${(cpu.pc * 2).toString(16)})` };
      break;
    }
    const now = performance.now();
    if (now - started - waited > options.wallLimitMs) {
      stop = { reason: 'wall-limit', detail: `the wall-clock limit of ${options.wallLimitMs / 1000} s ran out` };
      break;
    }
    if (now - lastYield > 50) {
      await new Promise((resolve) => setImmediate(resolve));
      lastYield = performance.now();
      if (options.signal?.aborted) stop = { reason: 'aborted', detail: 'the run was cancelled' };
    }
  }
  const baud = usart.txEnable ? Math.round(usart.baudRate) : undefined;
  if (toSend.length > 0) {
    const why = usart.rxEnable ? 'the run ended first' : 'the sketch never turned the serial receiver on (Serial.begin)';
    notes.push(`${toSend.length} of the ${toSend.length + sentBytes} bytes of --serial-in were not sent: ${why}`);
  }
  return {
    mcu: machine.mcu.mcu,
    clockHz: options.clockHz,
    cycles: cpu.cycles,
    simulatedSeconds: cpu.cycles / options.clockHz,
    wallSeconds: (performance.now() - started - waited) / 1000,
    stop,
    serial: { text: serialText, bytes: serialBytes, truncated: serialText.length >= SIMULATION_LIMITS.serialChars, ...(baud ? { baud } : {}) },
    ...(others.some((other) => other.bytes > 0)
      ? {
          otherSerial: others
            .filter((other) => other.bytes > 0)
            .map(({ name, text, bytes, truncated, usart: other }) => ({ name, text, bytes, truncated, ...(other.txEnable ? { baud: Math.round(other.baudRate) } : {}) })),
        }
      : {}),
    pins: trace.summary(),
    trace: { changes: trace.changes, dropped: trace.dropped },
    levels: levels.chart(cpu.cycles),
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/** `--serial-in 'hello\n'` from a shell: \n, \r, \t and \\ as their characters. */
export function unescapeSerial(text: string): string {
  return text.replace(/\\([nrt\\])/g, (_, c: string) => ({ n: '\n', r: '\r', t: '\t', '\\': '\\' })[c]!);
}
