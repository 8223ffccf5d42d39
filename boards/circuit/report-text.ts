// The parts' states for people: one line per part with the intervals of what it showed
// ("led1 (wokwi-led): off 0.00–1.00 s, on 1.00–2.00 s; ends on").
import type { CircuitReport, PartReport } from './circuit.js';

/** Intervals printed per part; the JSON report keeps more. */
const PRINTED_INTERVALS = 8;

export function formatCircuit(report: CircuitReport): string {
  const lines: string[] = [];
  if (report.parts.length > 0) lines.push('Parts:', ...report.parts.map((part) => `  ${formatPart(part)}`));
  for (const note of report.notes) lines.push(`Note: ${note}.`);
  return lines.length > 0 ? lines.join('\n') + '\n' : '';
}

export function formatPart(part: PartReport): string {
  const shown = part.intervals.slice(0, PRINTED_INTERVALS).map((i) => `${i.state} ${seconds(i.from)}–${seconds(i.to)} s`);
  const more = part.changes + 1 - shown.length;
  return `${part.id} (${part.type}): ${shown.join(', ')}${more > 0 ? `, … ${more} more` : ''}; ends ${part.state}`;
}

function seconds(t: number): string {
  return t.toFixed(2);
}
