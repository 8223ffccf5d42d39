// The chips boardbridge's simulator (boards/simulate, avr8js) runs: the ATmega328P with avr8js's
// own peripheral configurations, and each chip boards/data/avr-chips.json has facts for (the rest
// of its configuration comes from avr-libc's header, boards/simulate/mcu-config.ts). The context
// tells the agent that a board with one of these build.mcu values can be tried in it before an upload.
import { dataJson, lazily } from '../../platform/data-files.js';

export const SIMULATED_MCU = 'atmega328p';

/** The chips the simulator runs; the data file is read the first time this is asked. */
export const simulatedMcus = lazily((): readonly string[] => [
  SIMULATED_MCU,
  ...Object.keys(dataJson<Record<string, unknown>>('avr-chips.json')).filter((key) => !key.startsWith('$')),
]);

export function isSimulatedMcu(mcu: string | undefined): boolean {
  return mcu !== undefined && simulatedMcus().includes(mcu);
}
