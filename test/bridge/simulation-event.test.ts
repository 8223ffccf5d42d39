import { describe, expect, it } from 'vitest';
import type { SimulationRecord } from '../../boards/commands/simulate-command.js';
import { EVENT_SERIAL_CHARS, EVENT_TRACE_CHANGES, simulationEvent, simulationJsonWithin } from '../../bridge/hardware/simulation-event.js';

// A long PWM run's record: 50 000 changes and 64 KiB of serial text.
const record: SimulationRecord = {
  mcu: 'atmega328p',
  sketch: '/tmp/Pwm',
  fqbn: 'arduino:avr:uno',
  board: 'Arduino UNO',
  clockHz: 16e6,
  cycles: 16e6 * 50,
  simulatedSeconds: 50,
  wallSeconds: 12,
  stop: { reason: 'time', detail: '50 s of simulated time passed' },
  serial: { text: 'x'.repeat(64 * 1024), bytes: 70_000, truncated: true, baud: 115_200 },
  pins: [{ pin: 'D9', number: 9, level: 1, risingEdges: 25_000, fallingEdges: 24_999, periodSeconds: 0.00204, frequencyHz: 490.2, dutyPercent: 25.4 }],
  trace: { changes: Array.from({ length: 50_000 }, (_, i) => ({ t: i * 0.001, pin: 'D9', level: (i % 2) as 0 | 1 })), dropped: 0 },
  levels: { bucketSeconds: 50 / 512, pins: [{ pin: 'D9', min: Array(512).fill(0), max: Array(512).fill(1), high: Array(512).fill(0.254) }] },
};

describe('the simulation event and the tool answer', () => {
  it('cuts the serial text and trace to the event’s sizes and counts what it left out', () => {
    const event = simulationEvent(record);
    expect(event.serial.text).toHaveLength(EVENT_SERIAL_CHARS);
    expect(event.trace.changes).toHaveLength(EVENT_TRACE_CHANGES);
    expect(event.trace.dropped).toBe(50_000 - EVENT_TRACE_CHANGES);
    expect(event.pins).toEqual(record.pins);
  });

  it('fits the agent’s answer into its limit as valid JSON with the figures kept', () => {
    const json = simulationJsonWithin(record, 16_000);
    expect(json.length).toBeLessThanOrEqual(16_000);
    const answer = JSON.parse(json);
    expect(answer.pins[0].dutyPercent).toBe(25.4);
    expect(answer.trace.changes.length + answer.trace.dropped).toBe(50_000);
    expect(answer.type).toBeUndefined();
    // The chart's buckets are the panel's, not the agent's.
    expect(answer.levels).toBeUndefined();
    expect(simulationEvent(record).levels).toEqual(record.levels);
  });

  it('keeps the Mega’s Serial1–3 text beside Serial’s, cut the same way, and gives it way before Serial’s in a tight answer', () => {
    const mega: SimulationRecord = {
      ...record,
      mcu: 'atmega2560',
      serial: { text: 'hello\r\n', bytes: 7, truncated: false, baud: 115_200 },
      otherSerial: [{ name: 'Serial1', text: 'y'.repeat(20_000), bytes: 20_000, truncated: false, baud: 9615 }],
    };
    const event = simulationEvent(mega);
    expect(event.otherSerial).toEqual([{ name: 'Serial1', text: 'y'.repeat(EVENT_SERIAL_CHARS), bytes: 20_000, truncated: true, baud: 9615 }]);
    const answer = JSON.parse(simulationJsonWithin(mega, 4000));
    expect(answer.serial.text).toBe('hello\r\n');
    expect(answer.otherSerial).toEqual([{ name: 'Serial1', text: '', bytes: 20_000, truncated: true, baud: 9615 }]);
  });
});
