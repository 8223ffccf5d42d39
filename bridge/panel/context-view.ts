// The board context as the panel's pin table shows it: plain strings, no source refs.
import type { HardwareContext } from '../../context-providers/types.js';
import type { BoardContextView } from './protocol.js';

export function toContextView(context: HardwareContext): BoardContextView {
  return {
    board: context.board.name,
    id: context.board.id,
    mcu: context.board.mcu,
    pins: context.pins.map((pin) => ({
      number: String(pin.number),
      names: pin.names,
      capabilities: [...pin.capabilities],
      functions: [...(pin.functions ?? []), ...(pin.assigned ?? [])],
      interrupt: pin.interrupt,
    })),
    notes: (context.notes ?? []).map((note) => ({ topic: note.topic, text: note.text })),
    findings: context.findings
      .filter((finding) => finding.severity !== 'info')
      .map((finding) => ({ severity: finding.severity, message: finding.message, ...(finding.file ? { where: `${finding.file}${finding.line ? `:${finding.line}` : ''}` } : {}) })),
    warnings: context.warnings.filter((warning) => warning.severity !== 'info').map((warning) => `${warning.message}${warning.suggestion ? ` — ${warning.suggestion}` : ''}`),
    buses: context.buses.map((bus) => ({
      kind: bus.kind,
      name: bus.name,
      pins: Object.fromEntries(Object.entries(bus.pins).map(([role, pin]) => [role, String(pin)])),
    })),
  };
}
