// The chips boardbridge's simulator (boards/simulate, avr8js) runs: the ATmega328P with avr8js's
// own peripheral configurations, and each chip boards/data/avr-chips.json has facts for (the rest
// of its configuration comes from avr-libc's header, boards/simulate/mcu-config.ts). The context
// tells the agent that a board with one of these build.mcu values can be tried in it before an upload.
import avrChips from '../../boards/data/avr-chips.json' with { type: 'json' };

export const SIMULATED_MCU = 'atmega328p';

export const SIMULATED_MCUS: readonly string[] = [SIMULATED_MCU, ...Object.keys(avrChips).filter((key) => !key.startsWith('$'))];

export function isSimulatedMcu(mcu: string | undefined): boolean {
  return mcu !== undefined && SIMULATED_MCUS.includes(mcu);
}
