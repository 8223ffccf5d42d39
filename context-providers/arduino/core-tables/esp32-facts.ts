// One board's ESP32 facts: the chip's data (by build.mcu) with each figure replaced by the
// installed SDK header's where it has one, and what the installed core's headers declare.
import { existsSync, readFileSync } from 'node:fs';
import { join } from '../../../platform/path-join.js';
import type { SourceRef } from '../../types.js';
import type { ResolvedBoard } from '../../../platform/arduino/resolve.js';
import { compileDefines, type VariantHeader } from '../variant-header.js';
import { chipSource, type Esp32Chip } from './esp32-chips.js';
import { readCoreApi, type CoreApi } from './esp32-core-api.js';
import { readSdkFacts, type SdkChannel } from './esp32-sdk.js';

export interface PinSet {
  pins: Set<number>;
  source: SourceRef;
}

export interface ChannelFact {
  /** `ADC1_CH4`, `T3`, `DAC1`. */
  name: string;
  unit?: number;
  source: SourceRef;
}

/** Which LEDC API the installed core has: `ledcAttach(pin, freq, bits)` (3.x) or `ledcSetup` + `ledcAttachPin` (before 3.0). */
export type LedcApi = { known: true; generation: '3.x' | 'before 3.0'; source: SourceRef; how: string } | { known: false; reason: string };

export interface Esp32Facts {
  chip: Esp32Chip;
  gpios: PinSet;
  inputOnly: PinSet;
  /** Where the data says LEDC reaches every output-capable GPIO. */
  ledcRouting: SourceRef;
  flash: PinSet;
  psram?: PinSet;
  octal?: PinSet;
  strapping: PinSet;
  usb: PinSet;
  adc: Map<number, ChannelFact>;
  adcSource: SourceRef;
  /** How ADC2 and Wi-Fi share the converter on this chip; undefined when the chip has no ADC2 or no Wi-Fi. */
  adc2WithWifi?: { value: 'blocked' | 'arbitrated'; source: SourceRef };
  touch: Map<number, ChannelFact>;
  touchSupported: { value: boolean; source: SourceRef };
  dac: Map<number, ChannelFact>;
  dacSource: SourceRef;
  uarts: { value: number; source: SourceRef };
  ledc: LedcApi;
  core: CoreApi;
  /** Whether the variant or the core defines digitalPinToInterrupt (some 1.0.x variants do not). */
  interruptMacro: boolean;
  /** The variant's pin header when it is installed. */
  variantHeader?: string;
  /** Header and SDK files read. */
  files: string[];
}

const set = (chip: Esp32Chip, key: 'gpios' | 'inputOnly' | 'flash' | 'psram' | 'octalFlashPsram' | 'strapping'): PinSet | undefined => {
  const figure = chip[key];
  return figure ? { pins: new Set(figure.value), source: chipSource(chip, key) } : undefined;
};

export function readEsp32Facts(board: ResolvedBoard, variant: VariantHeader, chip: Esp32Chip): Esp32Facts {
  const sdk = readSdkFacts(board, chip.id);
  const { gpios, inputOnly } = sdk;
  const uarts = sdk.uarts ?? { value: chip.uarts.value, source: chipSource(chip, 'uarts') };

  const adc = channelFacts(sdk.adc, chip, 'adc', (entry) => `ADC${entry.unit}_CH${entry.channel}`);
  const touch = channelFacts(chip.touchSupported.value ? sdk.touch : new Map(), chip, 'touch', (entry) => `T${entry.channel}`);
  const dac = channelFacts(sdk.dac, chip, 'dac', (entry) => `DAC${entry.channel}`);

  const hpUarts = chip.uarts.value - (chip.lpUarts?.value ?? 0);
  const seeds: Record<string, string> = {
    [`CONFIG_IDF_TARGET_${chip.id.toUpperCase()}`]: '1',
    SOC_UART_NUM: String(uarts.value),
    SOC_UART_HP_NUM: String(hpUarts),
    SOC_LEDC_SUPPORTED: '1',
    ...(chip.touchSupported.value ? { SOC_TOUCH_SENSOR_SUPPORTED: '1' } : {}),
    ...(chip.dac.length > 0 ? { SOC_DAC_SUPPORTED: '1' } : {}),
  };
  const core = readCoreApi(board, compileDefines(board), new Map([...variant.macros, ...sdk.macros]), seeds);

  const adcDriver = sdk.socDir ? join(sdk.socDir, '..', '..', 'driver', 'driver', 'adc.h') : undefined;
  return {
    chip,
    gpios: gpios ? { pins: new Set(gpios.value), source: gpios.source } : set(chip, 'gpios')!,
    inputOnly: inputOnly ? { pins: new Set(inputOnly.value), source: inputOnly.source } : set(chip, 'inputOnly')!,
    ledcRouting: chipSource(chip, 'ledc'),
    flash: set(chip, 'flash')!,
    psram: set(chip, 'psram'),
    octal: set(chip, 'octalFlashPsram'),
    strapping: set(chip, 'strapping')!,
    usb: { pins: new Set(chip.usb.pins), source: chipSource(chip, 'usb') },
    adc,
    adcSource: sdk.adc.size > 0 ? [...sdk.adc.values()][0].source : chipSource(chip, 'adc'),
    ...(chip.adc2WithWifi ? { adc2WithWifi: { value: chip.adc2WithWifi.value, source: adc2Source(adcDriver, chip) } } : {}),
    touch,
    touchSupported: { value: chip.touchSupported.value, source: chipSource(chip, 'touchSupported') },
    dac,
    dacSource: sdk.dac.size > 0 ? [...sdk.dac.values()][0].source : chipSource(chip, 'dac'),
    uarts,
    ledc: ledcApi(board, core),
    core,
    interruptMacro: variant.macros.has('digitalPinToInterrupt') || core.macros.has('digitalPinToInterrupt') || core.functions.has('digitalPinToInterrupt'),
    ...(variant.header ? { variantHeader: variant.header } : {}),
    files: [...sdk.files, ...core.files],
  };
}

// The installed header's channels when it has any, else the data file's, each with its line.
function channelFacts(installed: Map<number, SdkChannel>, chip: Esp32Chip, key: 'adc' | 'touch' | 'dac', name: (entry: { unit?: number; channel: number }) => string): Map<number, ChannelFact> {
  const facts = new Map<number, ChannelFact>();
  if (installed.size > 0) for (const [gpio, entry] of installed) facts.set(gpio, { name: name(entry), unit: entry.unit, source: entry.source });
  else for (const entry of chip[key]) facts.set(entry.gpio, { name: name(entry), unit: entry.unit, source: chipSource(chip, key, entry.gpio) });
  return facts;
}

// IDF 3.x driver/adc.h says adc2_get_raw returns ESP_ERR_TIMEOUT once Wi-Fi is started.
function adc2Source(adcHeader: string | undefined, chip: Esp32Chip): SourceRef {
  if (chip.adc2WithWifi?.value === 'blocked' && adcHeader && existsSync(adcHeader)) {
    const line = lineMatching(adcHeader, /ESP_ERR_TIMEOUT.*WIFI/i);
    if (line) return { file: adcHeader, line };
  }
  return chipSource(chip, 'adc2WithWifi');
}

function lineMatching(file: string, pattern: RegExp): number | undefined {
  try {
    const index = readFileSync(file, 'utf8').split('\n').findIndex((line) => pattern.test(line));
    return index >= 0 ? index + 1 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The core's own esp32-hal-ledc.h decides (CircuitMess 1.7.5 is a 1.0.x core whatever its version
 * says); only without that header does Espressif's own platform version stand in for it.
 */
function ledcApi(board: ResolvedBoard, core: CoreApi): LedcApi {
  const attach = core.functions.get('ledcAttach');
  const setup = core.functions.get('ledcSetup') ?? core.functions.get('ledcAttachPin');
  if (attach && !setup) return { known: true, generation: '3.x', source: attach, how: 'ledcAttach(pin, freq, bits), then ledcWrite(pin, duty)' };
  if (setup && !attach) return { known: true, generation: 'before 3.0', source: setup, how: 'ledcSetup(channel, freq, bits), ledcAttachPin(pin, channel), then ledcWrite(channel, duty)' };
  const ledcHeader = join(board.corePath, 'esp32-hal-ledc.h');
  if (existsSync(ledcHeader)) return { known: false, reason: `${ledcHeader} declares ${attach ? 'both ledcAttach and ledcSetup' : 'neither ledcAttach nor ledcSetup'}` };
  const version = board.platform.version;
  const platformTxt = join(board.platformPath, 'platform.txt');
  if (board.vendor === 'esp32' && /^\d+\./.test(version)) {
    const major = Number(version.split('.')[0]);
    const source = { file: platformTxt, line: lineMatching(platformTxt, /^version=/) };
    return major >= 3
      ? { known: true, generation: '3.x', source, how: 'ledcAttach(pin, freq, bits), then ledcWrite(pin, duty)' }
      : { known: true, generation: 'before 3.0', source, how: 'ledcSetup(channel, freq, bits), ledcAttachPin(pin, channel), then ledcWrite(channel, duty)' };
  }
  return { known: false, reason: `${ledcHeader} is not installed and ${board.vendor}:${board.architecture} ${version} is not Espressif's own numbering` };
}
