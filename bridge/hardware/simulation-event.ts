// A finished simulation as faces see it (`run --json`, the panel): the whole summary, the
// serial text and the pin trace cut to sizes a line of JSON can carry.
import type { SimulationRecord } from '../../boards/commands/simulate-command.js';

export const EVENT_SERIAL_CHARS = 8 * 1024;
export const EVENT_TRACE_CHANGES = 2000;

/** The run's record less the raw cycle count, with the serial text and trace cut. */
export type SimulationEvent = { type: 'simulation' } & Omit<SimulationRecord, 'mcu' | 'cycles'>;

export function simulationEvent(record: SimulationRecord): SimulationEvent {
  const kept = record.trace.changes.slice(0, EVENT_TRACE_CHANGES);
  return {
    type: 'simulation',
    sketch: record.sketch,
    fqbn: record.fqbn,
    board: record.board,
    clockHz: record.clockHz,
    simulatedSeconds: record.simulatedSeconds,
    wallSeconds: record.wallSeconds,
    stop: record.stop,
    serial: {
      text: record.serial.text.slice(0, EVENT_SERIAL_CHARS),
      bytes: record.serial.bytes,
      truncated: record.serial.truncated || record.serial.text.length > EVENT_SERIAL_CHARS,
      ...(record.serial.baud ? { baud: record.serial.baud } : {}),
    },
    ...(record.otherSerial
      ? {
          otherSerial: record.otherSerial.map((port) => ({
            ...port,
            text: port.text.slice(0, EVENT_SERIAL_CHARS),
            truncated: port.truncated || port.text.length > EVENT_SERIAL_CHARS,
          })),
        }
      : {}),
    pins: record.pins,
    trace: { changes: kept, dropped: record.trace.dropped + record.trace.changes.length - kept.length },
    levels: record.levels,
    ...(record.notes ? { notes: record.notes } : {}),
    ...(record.vcd ? { vcd: record.vcd } : {}),
    ...(record.diagram ? { diagram: record.diagram } : {}),
    ...(record.circuit
      ? {
          circuit: {
            ...record.circuit,
            changes: record.circuit.changes.slice(0, EVENT_TRACE_CHANGES),
            dropped: record.circuit.dropped + Math.max(0, record.circuit.changes.length - EVENT_TRACE_CHANGES),
          },
        }
      : {}),
    ...(record.scenario ? { scenario: record.scenario } : {}),
  };
}

/**
 * The event without its type, as JSON of at most `limit` characters (a tool answer's limit):
 * the trace gives way first, then the other USARTs' text, then the serial text; the figures always stay.
 */
export function simulationJsonWithin(record: SimulationRecord, limit: number): string {
  // The per-bucket levels are for charts: the agent reads the figures and the trace.
  const { type: _type, levels: _levels, ...summary } = simulationEvent(record);
  let json = JSON.stringify(summary);
  while (json.length > limit && (summary.trace.changes.length > 0 || (summary.circuit?.changes.length ?? 0) > 0)) {
    const keep = Math.floor(summary.trace.changes.length / 2);
    summary.trace = { changes: summary.trace.changes.slice(0, keep), dropped: summary.trace.dropped + summary.trace.changes.length - keep };
    if (summary.circuit) {
      // The part intervals stay: the change list repeats them in time order.
      const parts = Math.floor(summary.circuit.changes.length / 2);
      summary.circuit = { ...summary.circuit, changes: summary.circuit.changes.slice(0, parts), dropped: summary.circuit.dropped + summary.circuit.changes.length - parts };
    }
    json = JSON.stringify(summary);
  }
  if (json.length > limit && summary.otherSerial) {
    summary.otherSerial = summary.otherSerial.map((port) => ({ ...port, text: '', truncated: true }));
    json = JSON.stringify(summary);
  }
  if (json.length > limit) {
    const room = Math.max(0, summary.serial.text.length - (json.length - limit));
    summary.serial = { ...summary.serial, text: summary.serial.text.slice(0, room), truncated: true };
    json = JSON.stringify(summary);
  }
  return json;
}
