// An ATmega328P in avr8js: the CPU, its three timers, USART0, ADC, EEPROM, watchdog and the
// GPIO ports the variant's pins sit on, wired the way avr8js documents for this chip.
// avr8js ships peripheral configurations (register addresses and interrupt vectors) for the
// ATmega328P only; see simulatable.ts for what that means for other boards.
import {
  adcConfig,
  avrInstruction,
  AVRADC,
  AVRClock,
  AVREEPROM,
  AVRIOPort,
  AVRTimer,
  AVRUSART,
  AVRWatchdog,
  clockConfig,
  CPU,
  EEPROMMemoryBackend,
  eepromConfig,
  portBConfig,
  portCConfig,
  portDConfig,
  timer0Config,
  timer1Config,
  timer2Config,
  usart0Config,
  watchdogConfig,
  type AVRPortConfig,
} from 'avr8js';
import { loadIntelHex } from './intel-hex.js';

/** ATmega328P datasheet, "Memories": 32 KiB flash, 2 KiB SRAM, 1 KiB EEPROM. */
const FLASH_BYTES = 32 * 1024;
const SRAM_BYTES = 2048;
const EEPROM_BYTES = 1024;

const PORTS: Record<string, AVRPortConfig> = { B: portBConfig, C: portCConfig, D: portDConfig };

export class AvrMachine {
  readonly cpu: CPU;
  readonly usart: AVRUSART;
  readonly adc: AVRADC;
  readonly ports = new Map<string, AVRIOPort>();

  constructor(hex: string, readonly clockHz: number) {
    const flash = new Uint8Array(FLASH_BYTES);
    loadIntelHex(hex, flash);
    this.cpu = new CPU(new Uint16Array(flash.buffer), SRAM_BYTES);
    for (const config of [timer0Config, timer1Config, timer2Config]) new AVRTimer(this.cpu, config);
    this.usart = new AVRUSART(this.cpu, usart0Config, clockHz);
    this.adc = new AVRADC(this.cpu, adcConfig);
    new AVREEPROM(this.cpu, new EEPROMMemoryBackend(EEPROM_BYTES), eepromConfig);
    const clock = new AVRClock(this.cpu, clockHz, clockConfig);
    new AVRWatchdog(this.cpu, watchdogConfig, clock);
    for (const [name, config] of Object.entries(PORTS)) this.ports.set(name, new AVRIOPort(this.cpu, config));
  }

  static portNames(): string[] {
    return Object.keys(PORTS);
  }

  /** Runs instructions until the cycle count reaches `cycle` or `halt()` says stop. */
  runUntil(cycle: number, halt: () => boolean): void {
    const cpu = this.cpu;
    while (cpu.cycles < cycle && !halt()) {
      avrInstruction(cpu);
      cpu.tick();
    }
  }

  /** `cli` then a jump to itself or `sleep` (avr-libc's exit()): nothing can ever run again. */
  get halted(): boolean {
    if (this.cpu.interruptsEnabled) return false;
    const opcode = this.cpu.progMem[this.cpu.pc];
    return opcode === 0xcfff || opcode === 0x9588;
  }
}
