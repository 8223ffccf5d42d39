// Sketch checks only the ESP32 family needs. ERRORs come from facts the installed files or the
// cited chip data establish; what they do not establish stays silent or at most a WARNING/INFO.
import type { Finding } from '../../types.js';
import type { CoreSketchView, SketchCall } from './core-facts.js';
import { chipSource } from './esp32-chips.js';
import type { Esp32Facts } from './esp32-facts.js';
import { missingApiFindings } from './esp32-missing-api.js';
import { gpioList } from './esp32-pins.js';

// Calls whose first argument is a GPIO the sketch drives or reads.
const GPIO_CALLS = new Set(['pinMode', 'digitalWrite', 'digitalRead', 'analogWrite', 'analogRead', 'touchRead', 'dacWrite', 'ledcAttach', 'ledcAttachChannel', 'ledcAttachPin', 'tone', 'noTone', 'pulseIn', 'attachInterrupt']);
const DRIVES = new Set(['digitalWrite', 'analogWrite', 'dacWrite', 'ledcAttach', 'ledcAttachChannel', 'ledcAttachPin', 'tone']);
const READS = new Set(['digitalRead', 'analogRead', 'pulseIn']);
const OUTPUT_MODES = new Set(['OUTPUT', 'OUTPUT_OPEN_DRAIN']);
const PULL_MODES = new Set(['INPUT_PULLUP', 'INPUT_PULLDOWN']);
const BEFORE_3 = new Set(['ledcSetup', 'ledcAttachPin', 'ledcDetachPin']);
const FROM_3 = new Set(['ledcAttach', 'ledcAttachChannel', 'ledcDetach', 'ledcFade', 'ledcOutputInvert']);

const text = (tokens: SketchCall['args'][number] | undefined): string => (tokens ?? []).map((token) => token.text).join('');

// A literal loop range gives a call several GPIOs: one finding per rule and call, naming them all.
function perCall(call: SketchCall, found: Finding[]): Finding[] {
  const values = call.values[0] ?? [];
  if (values.length <= 1) return found;
  const byCode = new Map<string, { finding: Finding; count: number }>();
  for (const finding of found) {
    const entry = byCode.get(finding.code);
    if (entry) entry.count++;
    else byCode.set(finding.code, { finding, count: 1 });
  }
  return [...byCode.values()].map(({ finding, count }) => (count > 1 ? { ...finding, message: `${finding.message} (and ${count - 1} more of the loop's ${values.length} values)` } : finding));
}

/** `boardLed`: the variant's LED_BUILTIN GPIO; the board itself wires that pin, strapping or not. */
export function checkEsp32Sketch(facts: Esp32Facts, view: CoreSketchView, boardLed?: number): Finding[] {
  const findings: Finding[] = [];
  const chip = facts.chip.name;
  const at = (call: SketchCall) => ({ file: call.token.file, line: call.token.line });
  const reported = new Set<string>();
  const once = (key: string, finding: Finding): void => {
    if (reported.has(key)) return;
    reported.add(key);
    findings.push(finding);
  };
  const usesWifi = view.includes.some((header) => /^WiFi(Multi)?\.h$/.test(header)) || view.calls.some((call) => call.receiver === 'WiFi');

  for (const call of view.calls) {
    if (call.receiver === 'Serial1' && call.name === 'begin') findings.push(...serial1Findings(facts, call));
    if (call.receiver !== undefined) continue;
    findings.push(...ledcFindings(facts, call, view.boardName));
    // Neither this variant nor the core defines it, so the name is undeclared when the sketch compiles.
    if (call.name === 'digitalPinToInterrupt' && !facts.interruptMacro && facts.core.files.length > 0 && facts.variantHeader) {
      once('digitalPinToInterrupt', { severity: 'error', code: 'esp32-no-digitalpintointerrupt', ...at(call), message: `digitalPinToInterrupt is not defined for ${view.boardName}: neither its pins_arduino.h (${facts.variantHeader}) nor the core's headers define it`, suggestion: 'On the ESP32 the interrupt number is the GPIO: write attachInterrupt(pin, handler, mode).' });
    }
    if (call.name === 'touchRead' && !facts.touchSupported.value) {
      once('touchRead', { severity: 'error', code: 'esp32-no-touch', ...at(call), message: `${chip} has no touch sensor, so touchRead does not exist on ${view.boardName}`, suggestion: 'Read a touch pad through an external touch controller, or use a chip with touch (ESP32, ESP32-S2, ESP32-S3).' });
      continue;
    }
    if (call.name === 'dacWrite' && facts.dac.size === 0) {
      once('dacWrite', { severity: 'error', code: 'esp32-no-dac', ...at(call), message: `${chip} has no DAC, so dacWrite does not exist on ${view.boardName}`, suggestion: 'Use PWM (analogWrite or LEDC) with an RC filter, or an external DAC.' });
      continue;
    }
    if (!GPIO_CALLS.has(call.name)) continue;
    const mode = text(call.args[1]);
    const found: Finding[] = [];
    // On the ESP32 cores attachInterrupt's pin and digitalPinToInterrupt(pin) are both the GPIO.
    for (const gpio of call.values[0] ?? []) {
      if (!facts.gpios.pins.has(gpio)) {
        found.push(...missingGpio(facts, call, gpio));
        continue;
      }
      const pin = `GPIO${gpio}`;
      const drives = DRIVES.has(call.name) || (call.name === 'pinMode' && OUTPUT_MODES.has(mode));
      if (drives && facts.inputOnly.pins.has(gpio)) {
        found.push({ severity: 'error', code: 'esp32-input-only', ...at(call), message: `${call.name}(${gpio}${call.name === 'pinMode' ? `, ${mode}` : ''}): ${pin} of the ${chip} is input only (${gpioList(facts.inputOnly.pins)}); it cannot drive the pin`, suggestion: 'Use an output-capable GPIO for outputs; keep this one for inputs.' });
      } else if (call.name === 'pinMode' && PULL_MODES.has(mode) && facts.inputOnly.pins.has(gpio) && facts.chip.id === 'esp32') {
        found.push({ severity: 'warning', code: 'esp32-no-pull', ...at(call), message: `pinMode(${gpio}, ${mode}): ${pin} has no internal pull-up or pull-down on the ESP32, so the input floats`, suggestion: 'Fit an external pull resistor, or use a GPIO with internal pulls.' });
      }
      if (facts.flash.pins.has(gpio)) {
        // Reading the pad leaves the flash alone; configuring or driving it takes the pin from the flash.
        found.push(READS.has(call.name)
          ? { severity: 'warning', code: 'esp32-flash-pin', ...at(call), message: `${call.name}(${gpio}): ${pin} is wired to the SPI flash on ${chip} modules (${gpioList(facts.flash.pins)}); it reads the flash bus, not a signal of yours`, suggestion: 'Pick a GPIO that is not a flash pin.' }
          : { severity: 'error', code: 'esp32-flash-pin', ...at(call), message: `${call.name}(${gpio}, …): ${pin} is wired to the SPI flash on ${chip} modules (${gpioList(facts.flash.pins)}); using it stops the chip reading its program`, suggestion: 'Pick a GPIO that is not a flash pin.' });
      } else if (facts.psram?.pins.has(gpio) || facts.octal?.pins.has(gpio)) {
        const psram = facts.psram?.pins.has(gpio) ? 'PSRAM (on modules that have it, e.g. WROVER)' : 'octal flash/PSRAM on ESP32-S3R8 modules';
        once(`memory${gpio}`, { severity: 'warning', code: 'esp32-psram-pin', ...at(call), message: `${call.name}(${gpio}, …): ${pin} is wired to ${psram}`, suggestion: 'Check the module; if it has PSRAM, pick another GPIO.' });
      }
      // The board's own LED on a strapping pin (GPIO5 on many boards) is how the board boots already.
      if (call.name === 'pinMode' && facts.strapping.pins.has(gpio) && gpio !== boardLed) {
        once(`strap${gpio}`, { severity: 'warning', code: 'esp32-strapping-pin', ...at(call), message: `${pin} is a strapping pin of the ${chip} (${gpioList(facts.strapping.pins)}): what is connected to it must not hold it at the wrong level during reset, or the board does not boot`, suggestion: 'Prefer another GPIO, or make sure the circuit leaves it at its default level at reset.' });
      }
      if (facts.usb.pins.has(gpio) && call.name !== 'analogRead') {
        once(`usb${gpio}`, { severity: 'warning', code: 'esp32-usb-pin', ...at(call), message: `${pin} carries the ${chip}'s native USB; using it as a GPIO disconnects USB (serial monitor and upload over USB)`, suggestion: 'Use another GPIO unless the board is powered and programmed over a UART.' });
      }
      found.push(...analogFindings(facts, call, gpio, usesWifi));
    }
    findings.push(...perCall(call, found));
  }
  findings.push(...ledcTimerFindings(facts, view));
  findings.push(...missingApiFindings(facts, view));
  return findings;
}

// A number inside the chip's GPIO range that is no GPIO (ESP32: 24, 28–31): the core ignores the
// call. GPIO20 is one on the ESP32-PICO-V3 only (ESP-IDF 5's mask has it, IDF 3.x's gpio.h not).
function missingGpio(facts: Esp32Facts, call: SketchCall, gpio: number): Finding[] {
  if (gpio < 0 || gpio >= facts.chip.gpioCount.value || facts.gpios.pins.size === 0) return [];
  const at = { file: call.token.file, line: call.token.line };
  const source = `${facts.gpios.source.file}${facts.gpios.source.line ? `:${facts.gpios.source.line}` : ''}`;
  if (facts.chip.gpios.value.includes(gpio)) {
    return [{ severity: 'warning', code: 'esp32-no-gpio', ...at, message: `${call.name}(${gpio}, …): GPIO${gpio} is not a GPIO in this core's SDK (${source}); only some ${facts.chip.name} packages bond it out`, suggestion: 'Use a GPIO the board has.' }];
  }
  return [{ severity: 'error', code: 'esp32-no-gpio', ...at, message: `${call.name}(${gpio}, …): the ${facts.chip.name} has no GPIO${gpio} (${source}), so the call does nothing`, suggestion: `Use one of ${gpioList(facts.gpios.pins)}.` }];
}

// Before 3.0 the core maps LEDC channel c to speed group c/8 and timer (c/2)%4, so channels 2n and
// 2n+1 share a timer, and ignores channels past the last (espressif/arduino-esp32 036c778
// cores/esp32/esp32-hal-ledc.c, "LEDC Chan to Group/Channel/Timer Mapping" and `chan > LAST_CHAN`).
// That file is not installed, so these are WARNINGs.
function ledcTimerFindings(facts: Esp32Facts, view: CoreSketchView): Finding[] {
  if (!facts.ledc.known || facts.ledc.generation !== 'before 3.0') return [];
  const findings: Finding[] = [];
  const channels = facts.chip.ledcChannels.value;
  const setups = new Map<string, { channel: number; settings: string; line: number }>();
  for (const call of view.calls) {
    if (call.name !== 'ledcSetup' || call.receiver !== undefined) continue;
    const at = { file: call.token.file, line: call.token.line };
    for (const channel of call.values[0] ?? []) {
      if (channel >= channels) {
        findings.push({ severity: 'warning', code: 'esp32-ledc-channel', ...at, message: `ledcSetup(${channel}, …): the ${facts.chip.name} has LEDC channels 0 to ${channels - 1}; this core ignores channel ${channel}`, suggestion: `Use a channel from 0 to ${channels - 1}.` });
        continue;
      }
      const freq = call.values[1];
      const bits = call.values[2];
      if (freq?.length !== 1 || bits?.length !== 1) continue;
      const timer = `${Math.floor(channel / 8)}/${Math.floor(channel / 2) % 4}`;
      const settings = `${freq[0]} Hz, ${bits[0]} bits`;
      const earlier = setups.get(timer);
      if (earlier && earlier.channel !== channel && earlier.settings !== settings) {
        findings.push({ severity: 'warning', code: 'esp32-ledc-shared-timer', ...at, message: `ledcSetup(${channel}, …) at ${settings} and ledcSetup(${earlier.channel}, …) at ${earlier.settings} (line ${earlier.line}): channels ${Math.min(channel, earlier.channel)} and ${Math.max(channel, earlier.channel)} share one LEDC timer on this core, so the later setup changes both`, suggestion: `Give channels of different frequencies timers of their own: use channel ${channel % 2 === 0 ? channel + 2 : channel + 1} or another pair.` });
      } else if (!earlier) {
        setups.set(timer, { channel, settings, line: call.token.line });
      }
    }
  }
  return findings;
}

// Before 3.0, HardwareSerial.cpp (not installed; espressif/arduino-esp32 00e01b1) gives Serial1
// RX1 = 9 and TX1 = 10 when begin() gets no pins: the ESP32's flash pins. 3.x defines RX1/TX1 in
// HardwareSerial.h (26/27), which the reader then reports as Serial1's pins.
function serial1Findings(facts: Esp32Facts, call: SketchCall): Finding[] {
  if (facts.chip.id !== 'esp32' || !facts.ledc.known || facts.ledc.generation !== 'before 3.0') return [];
  if (facts.core.serial?.some((object) => object.name === 'Serial1' && object.pins)) return [];
  const rx = call.values[2];
  if (call.args.length >= 3 && !(rx?.length === 1 && rx[0] < 0)) return [];
  return [{ severity: 'warning', code: 'esp32-serial1-default-pins', file: call.token.file, line: call.token.line, message: 'Serial1.begin() without pins: on arduino-esp32 before 3.0 Serial1 defaults to GPIO9 (RX) and GPIO10 (TX), which are wired to the SPI flash on ESP32 modules, so the sketch crashes when Serial1 starts', suggestion: 'Give the pins: Serial1.begin(baud, SERIAL_8N1, rxPin, txPin), e.g. rxPin 16, txPin 17.' }];
}

function analogFindings(facts: Esp32Facts, call: SketchCall, gpio: number, usesWifi: boolean): Finding[] {
  const chip = facts.chip.name;
  const at = { file: call.token.file, line: call.token.line };
  if (call.name === 'analogRead' && usesWifi && facts.adc.get(gpio)?.unit === 2 && facts.adc2WithWifi) {
    const adc1 = gpioList([...facts.adc].filter(([, entry]) => entry.unit === 1).map(([pin]) => pin));
    return facts.adc2WithWifi.value === 'blocked'
      ? [{ severity: 'error', code: 'esp32-adc2-wifi', ...at, message: `analogRead(${gpio}): GPIO${gpio} is on ADC2, which the ${chip} cannot read while Wi-Fi runs, and this sketch uses WiFi`, suggestion: `Move the signal to an ADC1 pin: ${adc1}.` }]
      : [{ severity: 'warning', code: 'esp32-adc2-wifi', ...at, message: `analogRead(${gpio}): GPIO${gpio} is on ADC2, which the ${chip} shares with Wi-Fi; reads can fail while Wi-Fi transmits`, suggestion: `Prefer an ADC1 pin: ${adc1}.` }];
  }
  if (call.name === 'analogRead' && facts.adc.get(gpio)?.unit === 2 && facts.chip.adc2Oneshot?.value === false && facts.ledc.known && facts.ledc.generation === '3.x') {
    const source = chipSource(facts.chip, 'adc2Oneshot');
    return [{ severity: 'warning', code: 'esp32-adc2-oneshot', ...at, message: `analogRead(${gpio}): GPIO${gpio} is on ADC2, which ESP-IDF 5 (under arduino-esp32 3.x) does not read on the ${chip} unless CONFIG_ADC_ONESHOT_FORCE_USE_ADC2_ON_C3 is set (errata; ${source.file}:${source.line})`, suggestion: 'Use an ADC1 pin.' }];
  }
  if (call.name === 'touchRead' && !facts.touch.has(gpio)) {
    const pads = [...facts.touch].map(([pin, entry]) => `${entry.name}=GPIO${pin}`).join(', ');
    return [{ severity: 'error', code: 'esp32-touch-pin', ...at, message: `touchRead(${gpio}): GPIO${gpio} has no touch pad on the ${chip}`, suggestion: `Use a touch pin: ${pads}.` }];
  }
  if (call.name === 'dacWrite' && !facts.dac.has(gpio)) {
    const dacs = [...facts.dac].map(([pin, entry]) => `${entry.name}=GPIO${pin}`).join(', ');
    return [{ severity: 'error', code: 'esp32-dac-pin', ...at, message: `dacWrite(${gpio}, …): GPIO${gpio} has no DAC on the ${chip}`, suggestion: `Use a DAC pin: ${dacs}.` }];
  }
  return [];
}

function ledcFindings(facts: Esp32Facts, call: SketchCall, boardName: string): Finding[] {
  const old = BEFORE_3.has(call.name);
  if (!old && !FROM_3.has(call.name)) return [];
  const at = { file: call.token.file, line: call.token.line };
  if (!facts.ledc.known) {
    return [{ severity: 'info', code: 'esp32-ledc-unknown', ...at, message: `${call.name}: could not check which LEDC API ${boardName}'s core has (${facts.ledc.reason})` }];
  }
  const where = `${facts.ledc.source.file}${facts.ledc.source.line ? `:${facts.ledc.source.line}` : ''}`;
  if (old && facts.ledc.generation === '3.x') {
    return [{ severity: 'error', code: 'esp32-ledc-api', ...at, message: `${call.name} was removed in arduino-esp32 3.0, and ${boardName}'s core is 3.x (${where})`, suggestion: `Use ${facts.ledc.how}.` }];
  }
  if (!old && facts.ledc.generation === 'before 3.0') {
    return [{ severity: 'error', code: 'esp32-ledc-api', ...at, message: `${call.name} exists only from arduino-esp32 3.0; ${boardName}'s core has the older LEDC API (${where})`, suggestion: `Use ${facts.ledc.how}.` }];
  }
  return [];
}
