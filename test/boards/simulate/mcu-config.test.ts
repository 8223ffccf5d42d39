// The chip configurations the simulator builds from avr-libc's installed headers: the builder
// run on the ATmega328P's header gives exactly the register addresses, bits and vectors avr8js
// ships for that chip, and every value of the ATmega2560's cites a line that defines it.
import { readFileSync } from 'node:fs';
import { adcConfig, clockConfig, eepromConfig, portBConfig, portCConfig, portDConfig, timer0Config, timer1Config, timer2Config, usart0Config, watchdogConfig } from 'avr8js';
import { describe, expect, it } from 'vitest';
import { readAvrIoHeader } from '../../../boards/simulate/avr-io-header.js';
import { AVR_CHIPS_FILE, buildMcuConfig, mcuConfig } from '../../../boards/simulate/mcu-config.js';

const INCLUDE = ['/usr/lib/avr/include'];

describe('chip configurations from avr-libc’s device headers', () => {
  it('the ATmega328P built from iom328p.h has the addresses, bits and vectors avr8js ships for it', () => {
    const header = readAvrIoHeader('atmega328p', INCLUDE);
    expect(header.deviceHeader).toBe('/usr/lib/avr/include/avr/iom328p.h');
    // No pin facts: only what the header gives is compared (the pins are avr8js's own).
    const built = buildMcuConfig('atmega328p', header, { pins: {}, adc: { references: [], singleEnded: {}, constantVolts: {} }, prescalers: { synchronous: [], asynchronous: [] } });
    const registers = ['bits', 'captureInterrupt', 'compAInterrupt', 'compBInterrupt', 'ovfInterrupt', 'TIFR', 'OCRA', 'OCRB', 'ICR', 'TCNT', 'TCCRA', 'TCCRB', 'TCCRC', 'TIMSK', 'TOV', 'OCFA', 'OCFB', 'TOIE', 'OCIEA', 'OCIEB'] as const;
    const pick = (timer: object) => Object.fromEntries(registers.map((key) => [key, (timer as Record<string, unknown>)[key]]));
    expect(built.timers.map(pick)).toEqual([timer0Config, timer1Config, timer2Config].map(pick));
    expect(built.usarts).toEqual([{ name: 'Serial', config: usart0Config }]);
    const { muxChannels: _a, adcReferences: _b, numChannels, ...adcRegisters } = built.adc;
    const { muxChannels: _c, adcReferences: _d, numChannels: _e, ...shipped } = adcConfig;
    expect(adcRegisters).toEqual(shipped);
    // iom328p.h names ADC0D–ADC5D in DIDR0 (ADC6/7 have no digital buffer); avr8js counts 8 channels.
    expect(numChannels).toBe(6);
    for (const [letter, shippedPort] of Object.entries({ B: portBConfig, C: portCConfig, D: portDConfig })) {
      expect({ PIN: built.ports[letter].PIN, DDR: built.ports[letter].DDR, PORT: built.ports[letter].PORT }).toEqual({ PIN: shippedPort.PIN, DDR: shippedPort.DDR, PORT: shippedPort.PORT });
    }
    expect(built.eeprom).toEqual(eepromConfig);
    expect(built.watchdog).toEqual(watchdogConfig);
    expect(built.clock).toEqual(clockConfig);
    expect([built.flashBytes, built.sramBytes, built.eepromBytes]).toEqual([32 * 1024, 2048, 1024]);
  });

  it('the ATmega2560: six timers (1, 3, 4, 5 of 16 bits with channel C), four USARTs, 16 ADC channels with MUX5, INT0–7, three pin-change groups', () => {
    const mega = mcuConfig('atmega2560', INCLUDE);
    expect(mega.timers.map((timer) => timer.bits)).toEqual([8, 16, 8, 16, 16, 16]);
    expect(mega.timers.map((timer) => timer.OCRC > 0)).toEqual([false, true, false, true, true, true]);
    expect(mega.usarts.map((usart) => usart.name)).toEqual(['Serial', 'Serial1', 'Serial2', 'Serial3']);
    expect(mega.adc.numChannels).toBe(16);
    expect(mega.adc.muxInputMask).toBe(0x3f);
    expect(Object.keys(mega.ports).join('')).toBe('ABCDEFGHJKL');
    const external = Object.entries(mega.ports).flatMap(([letter, port]) => port.externalInterrupts.flatMap((ext, bit) => (ext ? [`${letter}${bit}:INT${ext.index}`] : [])));
    expect(external.sort()).toEqual(['D0:INT0', 'D1:INT1', 'D2:INT2', 'D3:INT3', 'E4:INT4', 'E5:INT5', 'E6:INT6', 'E7:INT7']);
    expect(Object.entries(mega.ports).flatMap(([letter, port]) => (port.pinChange ? [`${letter}:${port.pinChange.PCIE}/${port.pinChange.mask}/${port.pinChange.offset}`] : []))).toEqual(['B:0/255/0', 'E:1/1/0', 'J:1/127/1', 'K:2/255/0']);
    // 8 KiB SRAM from 0x200 to RAMEND 0x21FF, 256 KiB flash (22-bit PC in avr8js), 4 KiB EEPROM.
    expect([mega.flashBytes, mega.sramBytes + 0x100, mega.eepromBytes]).toEqual([256 * 1024, 0x2200, 4096]);
  });

  it('every value of the ATmega2560’s configuration cites the header or data-file line that gives it', () => {
    const mega = mcuConfig('atmega2560', INCLUDE);
    expect(mega.sources.size).toBeGreaterThan(300);
    const files = new Map<string, string[]>();
    for (const [what, source] of mega.sources) {
      const lines = files.get(source.file) ?? readFileSync(source.file, 'utf8').split('\n');
      files.set(source.file, lines);
      const line = lines[(source.line ?? 0) - 1] ?? '';
      if (source.file === AVR_CHIPS_FILE) expect(line, what).toMatch(/"(OC|T|INT|PCINT)\w*"|Source"|"source"/);
      else expect(line, `${what} at ${source.file}:${source.line}`).toMatch(/^\s*#\s*define\s+\w+/);
    }
    // A sample checked against the line itself: Timer3's OCR3C and the Timer0 overflow vector (23 in iom2560.h, word 46).
    const ocr3c = mega.sources.get('timer3.OCRC')!;
    expect(files.get(ocr3c.file)![ocr3c.line! - 1]).toMatch(/#define OCR3C\s+_SFR_MEM16\(0x9C\)/);
    expect(mega.timers[3].OCRC).toBe(0x9c);
    const overflow = mega.sources.get('timer0.ovfInterrupt')!;
    expect(files.get(overflow.file)![overflow.line! - 1]).toMatch(/TIMER0_OVF_vect\s+_VECTOR\(23\)/);
    expect(mega.timers[0].ovfInterrupt).toBe(46);
  });

  it('without avr-libc’s headers the Mega is refused with what to install; a chip the header does not know is named', () => {
    expect(() => mcuConfig('atmega2560', ['/nonexistent-include'])).toThrow(/^atmega2560: no avr\/io\.h in \/nonexistent-include; install avr-libc \(Debian: apt install avr-libc\)/);
    expect(() => readAvrIoHeader('atmega9999', INCLUDE)).toThrow(/^atmega9999: \/usr\/lib\/avr\/include\/avr\/io\.h does not know this chip \(no __AVR_ATmega9999__ there\)/);
  });
});
