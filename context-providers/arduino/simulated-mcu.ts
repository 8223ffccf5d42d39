// The chip boardbridge's simulator (boards/simulate, avr8js) runs: the context tells the agent
// that a board with this build.mcu can be tried in it before an upload.
export const SIMULATED_MCU = 'atmega328p';
