// The peripheral configurations avr8js needs for each simulated chip. The ATmega328P's are the ones
// avr8js ships. Every other chip's are built here: register addresses, bit numbers, interrupt
// vectors and memory sizes from avr-libc's installed <avr/io.h> (avr-io-header.ts, each value with
// its header line), and the facts no header carries (which pin each timer output and interrupt
// is on, the ADC's input selections, the timer prescalers) from boards/data/avr-chips.json, which
// cites the datasheet for each.
import {
  adcConfig,
  ADCMuxInputType,
  ADCReference,
  clockConfig,
  eepromConfig,
  portBConfig,
  portCConfig,
  portDConfig,
  timer0Config,
  timer1Config,
  timer2Config,
  usart0Config,
  watchdogConfig,
  type ADCConfig,
  type ADCMuxConfiguration,
  type AVRClockConfig,
  type AVREEPROMConfig,
  type AVRExternalInterrupt,
  type AVRPinChangeInterrupt,
  type AVRPortConfig,
  type AVRTimerConfig,
  type WatchdogConfig,
} from 'avr8js';
import { dataFile, dataSource } from '../../platform/data-files.js';
import { keyLines } from '../../context-providers/arduino/core-tables/rp2040-chips.js';
import { simulatedMcus } from '../../context-providers/arduino/simulated-mcu.js';
import type { SourceRef } from '../../platform/finding.js';
import { AvrHeaderError, readAvrIoHeader, type AvrIoHeader } from './avr-io-header.js';

export type UsartConfig = typeof usart0Config;

export interface McuConfig {
  /** build.mcu: `atmega328p`, `atmega2560`. */
  mcu: string;
  flashBytes: number;
  /** What avr8js's CPU takes: the data space above its 0x100 bytes of registers, up to RAMEND. */
  sramBytes: number;
  eepromBytes: number;
  ports: Record<string, AVRPortConfig>;
  timers: AVRTimerConfig[];
  /** USART0 first, as the core's `Serial`, then `Serial1`, … */
  usarts: Array<{ name: string; config: UsartConfig }>;
  adc: ADCConfig;
  eeprom: AVREEPROMConfig;
  watchdog: WatchdogConfig;
  clock: AVRClockConfig;
  /** Where each value of a built configuration came from (`timer3.OCRC` → iom2560.h:799). */
  sources: Map<string, SourceRef>;
}

export const AVR_CHIPS_FILE = dataFile('avr-chips.json');

/** ATmega328P datasheet, "Memories": 32 KiB flash, 2 KiB SRAM, 1 KiB EEPROM. */
export const ATMEGA328P: McuConfig = {
  mcu: 'atmega328p',
  flashBytes: 32 * 1024,
  sramBytes: 2048,
  eepromBytes: 1024,
  ports: { B: portBConfig, C: portCConfig, D: portDConfig },
  timers: [timer0Config, timer1Config, timer2Config],
  usarts: [{ name: 'Serial', config: usart0Config }],
  adc: adcConfig,
  eeprom: eepromConfig,
  watchdog: watchdogConfig,
  clock: clockConfig,
  sources: new Map(),
};


interface ChipFacts {
  pins: Record<string, string>;
  adc: { references: string[]; singleEnded: Record<string, number>; constantVolts: Record<string, number> };
  prescalers: { synchronous: number[]; asynchronous: number[] };
}

const built = new Map<string, McuConfig>();

/** The configuration for `mcu`; `includeDirs`: where the board's toolchain keeps avr/io.h. */
export function mcuConfig(mcu: string, includeDirs: string[]): McuConfig {
  if (mcu === 'atmega328p') return ATMEGA328P;
  const key = `${mcu}|${includeDirs.join(':')}`;
  let config = built.get(key);
  if (!config) built.set(key, (config = buildMcuConfig(mcu, readAvrIoHeader(mcu, includeDirs))));
  return config;
}

/** Builds a chip's configuration from its header; exported so a test can build the 328P's and compare. */
export function buildMcuConfig(mcu: string, header: AvrIoHeader, facts?: ChipFacts): McuConfig {
  const chipFile = dataSource<Record<string, ChipFacts>>('avr-chips.json');
  const chip = facts ?? chipFile.data[mcu];
  if (!chip) throw new AvrHeaderError(mcu, `${AVR_CHIPS_FILE} has no entry for this chip (it has ${simulatedMcus().slice(1).join(', ')})`);
  const lines = keyLines(chipFile.text);
  const sources = new Map<string, SourceRef>();
  const value = (what: string, name: string): number => {
    const found = header.value(name);
    sources.set(what, found.source);
    return found.value;
  };
  const optional = (what: string, name: string): number => (header.has(name) ? value(what, name) : 0);
  const mask = (what: string, name: string): number => (header.has(name) ? 1 << value(what, name) : 0);

  // Vectors are _VECTORS_SIZE / count bytes each (4 on chips with JMP): avr8js takes word addresses.
  const vectorCount = header.vectorCount();
  const vectorWords = value('vectors', '_VECTORS_SIZE') / vectorCount / 2;
  const vector = (what: string, name: string): number => {
    if (!header.has(name)) return 0;
    const found = header.vector(name);
    sources.set(what, found.source);
    return found.value * vectorWords;
  };

  const pinOf = (fact: string): { port: string; bit: number } | undefined => {
    const text = chip.pins[fact];
    if (text === undefined) return undefined;
    const match = /^([A-L])([0-7])$/.exec(text);
    if (!match) throw new AvrHeaderError(mcu, `${AVR_CHIPS_FILE}:${lines.get(`${mcu}.pins.${fact}`)}: "${text}" is not a port letter and bit`);
    sources.set(`pin.${fact}`, { file: AVR_CHIPS_FILE, line: lines.get(`${mcu}.pins.${fact}`) });
    return { port: match[1], bit: Number(match[2]) };
  };

  const ports: Record<string, AVRPortConfig> = {};
  for (const letter of 'ABCDEFGHIJKL') {
    if (!header.has(`PORT${letter}`)) continue;
    ports[letter] = {
      PIN: value(`port${letter}.PIN`, `PIN${letter}`),
      DDR: value(`port${letter}.DDR`, `DDR${letter}`),
      PORT: value(`port${letter}.PORT`, `PORT${letter}`),
      externalInterrupts: [],
    };
  }
  const portAddress = (pin: { port: string } | undefined): number => (pin && ports[pin.port] ? ports[pin.port].PORT : 0);

  for (let n = 0; header.has(`INT${n}_vect`); n++) {
    const pin = pinOf(`INT${n}`);
    if (!pin || !ports[pin.port]) continue;
    const external: AVRExternalInterrupt = {
      EICR: value(`int${n}.EICR`, header.registerOf(`ISC${n}0`)),
      EIMSK: value(`int${n}.EIMSK`, 'EIMSK'),
      EIFR: value(`int${n}.EIFR`, 'EIFR'),
      iscOffset: value(`int${n}.iscOffset`, `ISC${n}0`),
      index: value(`int${n}.index`, `INT${n}`),
      interrupt: vector(`int${n}.interrupt`, `INT${n}_vect`),
    };
    ports[pin.port].externalInterrupts[pin.bit] = external;
  }
  for (const config of Object.values(ports)) {
    for (let bit = 0; bit < 8; bit++) config.externalInterrupts[bit] ??= null;
  }

  // Pin change groups: PCINTn is bit `PCINTn` of the PCMSKk it follows in the header.
  for (let n = 0; chip.pins[`PCINT${n}`] !== undefined; n++) {
    const pin = pinOf(`PCINT${n}`)!;
    const register = header.registerOf(`PCINT${n}`);
    const group = /^PCMSK(\d)$/.exec(register)?.[1];
    if (group === undefined) throw new AvrHeaderError(mcu, `PCINT${n} follows ${register}, not a PCMSKn register`);
    const bit = value(`pcint${n}.bit`, `PCINT${n}`);
    const config = ports[pin.port];
    if (!config) continue;
    const existing = config.pinChange;
    if (existing && (existing.PCMSK !== header.value(register).value || existing.offset !== bit - pin.bit)) {
      throw new AvrHeaderError(mcu, `port ${pin.port} has pin-change bits in more than one PCMSK register or at uneven offsets; avr8js cannot express that`);
    }
    const change: AVRPinChangeInterrupt = existing ?? {
      PCIE: value(`pcint.group${group}.PCIE`, `PCIE${group}`),
      PCICR: value('pcint.PCICR', 'PCICR'),
      PCIFR: value('pcint.PCIFR', 'PCIFR'),
      PCMSK: value(`pcint.group${group}.PCMSK`, register),
      pinChangeInterrupt: vector(`pcint.group${group}.interrupt`, `PCINT${group}_vect`),
      mask: 0,
      offset: bit - pin.bit,
    };
    change.mask |= 1 << pin.bit;
    config.pinChange = change;
  }

  const timers: AVRTimerConfig[] = [];
  for (let n = 0; header.has(`TCCR${n}A`); n++) {
    const t = `timer${n}`;
    const outA = pinOf(`OC${n}A`);
    const outB = pinOf(`OC${n}B`);
    const outC = pinOf(`OC${n}C`);
    const clockIn = pinOf(`T${n}`);
    // The asynchronous timer (its clock select bit AS<n> is in ASSR) has a prescaler of its own.
    const asynchronous = header.has('ASSR') && header.has(`AS${n}`);
    if (asynchronous) sources.set(`${t}.asynchronous`, header.value(`AS${n}`).source);
    const dividers = asynchronous ? chip.prescalers.asynchronous : chip.prescalers.synchronous;
    sources.set(`${t}.dividers`, { file: AVR_CHIPS_FILE, line: lines.get(`${mcu}.prescalers.source`) });
    timers.push({
      bits: header.has(`TCNT${n}H`) ? 16 : 8,
      dividers: { 0: dividers[0], 1: dividers[1], 2: dividers[2], 3: dividers[3], 4: dividers[4], 5: dividers[5], 6: dividers[6], 7: dividers[7] },
      captureInterrupt: vector(`${t}.captureInterrupt`, `TIMER${n}_CAPT_vect`),
      compAInterrupt: vector(`${t}.compAInterrupt`, `TIMER${n}_COMPA_vect`),
      compBInterrupt: vector(`${t}.compBInterrupt`, `TIMER${n}_COMPB_vect`),
      compCInterrupt: vector(`${t}.compCInterrupt`, `TIMER${n}_COMPC_vect`),
      ovfInterrupt: vector(`${t}.ovfInterrupt`, `TIMER${n}_OVF_vect`),
      TIFR: value(`${t}.TIFR`, `TIFR${n}`),
      OCRA: value(`${t}.OCRA`, `OCR${n}A`),
      OCRB: value(`${t}.OCRB`, `OCR${n}B`),
      OCRC: optional(`${t}.OCRC`, `OCR${n}C`),
      ICR: optional(`${t}.ICR`, `ICR${n}`),
      TCNT: value(`${t}.TCNT`, `TCNT${n}`),
      TCCRA: value(`${t}.TCCRA`, `TCCR${n}A`),
      TCCRB: value(`${t}.TCCRB`, `TCCR${n}B`),
      TCCRC: optional(`${t}.TCCRC`, `TCCR${n}C`),
      TIMSK: value(`${t}.TIMSK`, `TIMSK${n}`),
      TOV: mask(`${t}.TOV`, `TOV${n}`),
      OCFA: mask(`${t}.OCFA`, `OCF${n}A`),
      OCFB: mask(`${t}.OCFB`, `OCF${n}B`),
      OCFC: mask(`${t}.OCFC`, `OCF${n}C`),
      TOIE: mask(`${t}.TOIE`, `TOIE${n}`),
      OCIEA: mask(`${t}.OCIEA`, `OCIE${n}A`),
      OCIEB: mask(`${t}.OCIEB`, `OCIE${n}B`),
      OCIEC: mask(`${t}.OCIEC`, `OCIE${n}C`),
      compPortA: portAddress(outA),
      compPinA: outA?.bit ?? 0,
      compPortB: portAddress(outB),
      compPinB: outB?.bit ?? 0,
      compPortC: portAddress(outC),
      compPinC: outC?.bit ?? 0,
      externalClockPort: portAddress(clockIn),
      externalClockPin: clockIn?.bit ?? 0,
    });
  }

  const usarts: McuConfig['usarts'] = [];
  for (let n = 0; header.has(`UDR${n}`); n++) {
    const u = `usart${n}`;
    // Chips with one USART call its vectors USART_RX_vect; the others USART0_RX_vect, …
    const vectorName = (kind: string) => (header.has(`USART${n}_${kind}_vect`) ? `USART${n}_${kind}_vect` : `USART_${kind}_vect`);
    usarts.push({
      name: n === 0 ? 'Serial' : `Serial${n}`,
      config: {
        rxCompleteInterrupt: vector(`${u}.rxCompleteInterrupt`, vectorName('RX')),
        dataRegisterEmptyInterrupt: vector(`${u}.dataRegisterEmptyInterrupt`, vectorName('UDRE')),
        txCompleteInterrupt: vector(`${u}.txCompleteInterrupt`, vectorName('TX')),
        UCSRA: value(`${u}.UCSRA`, `UCSR${n}A`),
        UCSRB: value(`${u}.UCSRB`, `UCSR${n}B`),
        UCSRC: value(`${u}.UCSRC`, `UCSR${n}C`),
        UBRRL: value(`${u}.UBRRL`, `UBRR${n}L`),
        UBRRH: value(`${u}.UBRRH`, `UBRR${n}H`),
        UDR: value(`${u}.UDR`, `UDR${n}`),
      },
    });
  }

  const muxChannels: ADCMuxConfiguration = {};
  for (const [code, channel] of Object.entries(chip.adc.singleEnded)) muxChannels[Number(code)] = { type: ADCMuxInputType.SingleEnded, channel };
  for (const [code, voltage] of Object.entries(chip.adc.constantVolts)) muxChannels[Number(code)] = { type: ADCMuxInputType.Constant, voltage };
  sources.set('adc.muxChannels', { file: AVR_CHIPS_FILE, line: lines.get(`${mcu}.adc.muxSource`) });
  sources.set('adc.adcReferences', { file: AVR_CHIPS_FILE, line: lines.get(`${mcu}.adc.referencesSource`) });
  let channels = 0;
  while (header.has(`ADC${channels}D`)) sources.set(`adc.channel${channels}`, header.value(`ADC${channels++}D`).source);
  let muxInputMask = 0;
  for (let bit = 0; header.has(`MUX${bit}`); bit++) muxInputMask |= 1 << bit;
  const references: Record<string, ADCReference> = { AREF: ADCReference.AREF, AVCC: ADCReference.AVCC, '1.1V': ADCReference.Internal1V1, '2.56V': ADCReference.Internal2V56 };
  const adc: ADCConfig = {
    ADMUX: value('adc.ADMUX', 'ADMUX'),
    ADCSRA: value('adc.ADCSRA', 'ADCSRA'),
    ADCSRB: value('adc.ADCSRB', 'ADCSRB'),
    ADCL: value('adc.ADCL', 'ADCL'),
    ADCH: value('adc.ADCH', 'ADCH'),
    DIDR0: value('adc.DIDR0', 'DIDR0'),
    adcInterrupt: vector('adc.adcInterrupt', 'ADC_vect'),
    numChannels: channels,
    muxInputMask,
    muxChannels,
    adcReferences: chip.adc.references.map((name) => references[name] ?? ADCReference.Reserved),
  };

  const ramEnd = value('sram', 'RAMEND');
  return {
    mcu,
    flashBytes: value('flash', 'FLASHEND') + 1,
    sramBytes: ramEnd + 1 - 0x100,
    eepromBytes: value('eeprom', 'E2END') + 1,
    ports,
    timers,
    usarts,
    adc,
    eeprom: {
      ...eepromConfig,
      eepromReadyInterrupt: vector('eeprom.eepromReadyInterrupt', 'EE_READY_vect'),
      EECR: value('eeprom.EECR', 'EECR'),
      EEDR: value('eeprom.EEDR', 'EEDR'),
      EEARL: value('eeprom.EEARL', 'EEARL'),
      EEARH: value('eeprom.EEARH', 'EEARH'),
    },
    watchdog: {
      watchdogInterrupt: vector('watchdog.watchdogInterrupt', 'WDT_vect'),
      MCUSR: value('watchdog.MCUSR', 'MCUSR'),
      WDTCSR: value('watchdog.WDTCSR', 'WDTCSR'),
    },
    clock: { CLKPR: value('clock.CLKPR', 'CLKPR') },
    sources,
  };
}
