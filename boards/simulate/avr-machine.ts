// An AVR chip in avr8js: the CPU, its timers, USARTs, ADC, EEPROM, watchdog and the GPIO ports
// the variant's pins sit on, wired the way avr8js documents, from the chip's configuration
// (mcu-config.ts: avr8js's own for the ATmega328P, built from avr-libc's header for the others).
import { avrInstruction, AVRADC, AVRClock, AVREEPROM, AVRIOPort, AVRTimer, AVRUSART, AVRWatchdog, CPU, EEPROMMemoryBackend } from 'avr8js';
import { loadIntelHex } from './intel-hex.js';
import { ATMEGA328P, type McuConfig } from './mcu-config.js';
import { addChannelC } from './timer-channel-c.js';
import { countByEvents } from './timer-events.js';

export class AvrMachine {
  readonly cpu: CPU;
  /** USART0, the core's `Serial`. */
  readonly usart: AVRUSART;
  /** Every USART, `Serial` first, then `Serial1`, … */
  readonly usarts: Array<{ name: string; usart: AVRUSART }>;
  readonly adc: AVRADC;
  readonly ports = new Map<string, AVRIOPort>();

  constructor(
    hex: string,
    readonly clockHz: number,
    readonly mcu: McuConfig = ATMEGA328P,
  ) {
    const flash = new Uint8Array(mcu.flashBytes);
    loadIntelHex(hex, flash);
    this.cpu = new CPU(new Uint16Array(flash.buffer), mcu.sramBytes);
    if (!('nextClockEvent' in this.cpu)) throw new Error('avr8js CPU no longer has the nextClockEvent member AvrMachine.runUntil reads (written for avr8js 0.21.1); check cpu.tick() and update boards/simulate/avr-machine.ts');
    for (const config of mcu.timers) {
      const timer = new AVRTimer(this.cpu, config);
      addChannelC(timer, this.cpu, config);
      countByEvents(timer, this.cpu, config);
    }
    this.usarts = mcu.usarts.map(({ name, config }) => ({ name, usart: new AVRUSART(this.cpu, config, clockHz) }));
    this.usart = this.usarts[0].usart;
    this.adc = new AVRADC(this.cpu, mcu.adc);
    new AVREEPROM(this.cpu, new EEPROMMemoryBackend(mcu.eepromBytes), mcu.eeprom);
    const clock = new AVRClock(this.cpu, clockHz, mcu.clock);
    new AVRWatchdog(this.cpu, mcu.watchdog, clock);
    for (const [name, config] of Object.entries(mcu.ports)) this.ports.set(name, new AVRIOPort(this.cpu, config));
  }

  /** The port letters of the chip (the ATmega328P's when none is given). */
  static portNames(mcu: McuConfig = ATMEGA328P): string[] {
    return Object.keys(mcu.ports);
  }

  /** Runs instructions until the cycle count reaches `cycle` or `halt()` says stop. */
  runUntil(cycle: number, halt: () => boolean): void {
    const cpu = this.cpu;
    // cpu.tick() runs a clock event that is due and a pending interrupt: called only then.
    const events = cpu as unknown as { nextClockEvent: { cycles: number } | null };
    while (cpu.cycles < cycle && !halt()) {
      avrInstruction(cpu);
      const event = events.nextClockEvent;
      if ((event !== null && event.cycles <= cpu.cycles) || cpu.nextInterrupt >= 0) cpu.tick();
    }
  }

  /** `cli` then a jump to itself or `sleep` (avr-libc's exit()): nothing can ever run again. */
  get halted(): boolean {
    if (this.cpu.interruptsEnabled) return false;
    const opcode = this.cpu.progMem[this.cpu.pc];
    return opcode === 0xcfff || opcode === 0x9588;
  }
}
