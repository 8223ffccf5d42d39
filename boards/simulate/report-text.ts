// The run for people: one line on the board and time, then one line per pin that moved.
import type { PinSummary } from './pin-trace.js';
import type { SimulationResult } from './simulation.js';

export function formatSimulation(result: SimulationResult, board: string): string {
  const speed = result.wallSeconds > 0 ? ` (${(result.simulatedSeconds / result.wallSeconds).toFixed(2)}× real time)` : '';
  const lines = [
    `Simulated ${board} at ${result.clockHz / 1e6} MHz: ${result.simulatedSeconds.toFixed(3)} s simulated in ${result.wallSeconds.toFixed(2)} s wall${speed}.`,
    `Stopped: ${result.stop.detail}.`,
    `Serial: ${result.serial.bytes} bytes${result.serial.baud ? ` at ${result.serial.baud} baud` : ''}.`,
  ];
  for (const other of result.otherSerial ?? []) {
    lines.push(`${other.name}: ${other.bytes} bytes${other.baud ? ` at ${other.baud} baud` : ''}: ${JSON.stringify(other.text.length > 200 ? `${other.text.slice(0, 200)}…` : other.text)}.`);
  }
  if (result.pins.length === 0) lines.push('Pins: no pin changed.');
  else lines.push('Pins:', ...result.pins.map((pin) => `  ${formatPin(pin)}`));
  for (const note of result.notes ?? []) lines.push(`Note: ${note}.`);
  return lines.join('\n') + '\n';
}

export function formatPin(pin: PinSummary): string {
  const parts = [`${pin.risingEdges} rising edge${pin.risingEdges === 1 ? '' : 's'}`];
  if (pin.periodSeconds !== undefined) {
    const period = pin.periodSeconds >= 1 ? `${pin.periodSeconds.toFixed(3)} s` : `${(pin.periodSeconds * 1000).toFixed(3)} ms`;
    parts.push(`period ${period} (${formatHz(pin.frequencyHz!)})`, `duty ${Math.round(pin.dutyPercent!)} %`);
  }
  parts.push(`ends ${pin.level === 1 ? 'high' : pin.level === 0 ? 'low' : 'floating'}`);
  return `${pin.pin}: ${parts.join(', ')}`;
}

function formatHz(hz: number): string {
  return hz >= 1000 ? `${(hz / 1000).toFixed(2)} kHz` : `${hz.toFixed(hz >= 10 ? 1 : 3)} Hz`;
}
