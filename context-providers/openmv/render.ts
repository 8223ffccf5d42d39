// Compact markdown of an OpenMV context for a prompt: the camera, its firmware and API, the frame
// buffer budget, the largest frames that fit, openmv.config, and the script's findings.
import { basename, dirname, relative } from 'node:path';
import type { Finding, HardwareContext, SourceRef } from '../types.js';

const cite = (source: SourceRef | undefined): string =>
  source ? ` [${source.file}${source.line ? `:${source.line}` : ''}]` : '';

function findingLine(finding: Finding, root: string | undefined): string {
  const file = finding.file ? (root ? relative(root, finding.file) || finding.file : finding.file) : '';
  const where = finding.line ? `${file ? `${file} ` : ''}line ${finding.line}` : file;
  const suggestion = finding.suggestion ? ` — ${finding.suggestion}` : '';
  return `- ${finding.severity}: ${where ? `${where}: ` : ''}${finding.message}${suggestion}`;
}

export function renderOpenMvContext(context: HardwareContext): string {
  const { board } = context;
  // The provider always lists <project root>/openmv.config among the inputs, present or not.
  const config = context.inputs.find((input) => basename(input) === 'openmv.config');
  const root = config ? dirname(config) : undefined;
  const lines = [`## OpenMV camera: ${board.name} (${board.id})`];
  lines.push(`- MCU ${board.mcu}${cite(board.sources?.mcu)}; arch string \`${board.architecture}\`${cite(board.sources?.architecture)}`);
  if (context.toolchain?.version) lines.push(`- firmware: ${context.toolchain.version}`);
  const notes = context.notes ?? [];
  const configNotes = notes.filter((n) => n.topic === 'openmv.config');
  for (const note of notes.filter((n) => n.topic !== 'openmv.config')) lines.push(`- ${note.topic}: ${note.text}${cite(note.source)}`);
  for (const limit of context.limits) {
    const value = typeof limit.value === 'number' ? limit.value.toLocaleString('en-US') : limit.value;
    lines.push(`- ${limit.name}: ${value}${limit.unit ? ` ${limit.unit}` : ''}${cite(limit.source)}`);
  }
  if (configNotes.length > 0) {
    const file = configNotes[0].source && { file: configNotes[0].source.file };
    lines.push(`- openmv.config${cite(file)}: ${configNotes.map((n) => n.text).join('; ')}`);
  }
  if (context.findings.length > 0) {
    lines.push('', '### Findings');
    lines.push(...context.findings.map((f) => findingLine(f, root)));
  }
  if (context.warnings.length > 0) {
    lines.push('', '### Reading problems');
    lines.push(...context.warnings.map((f) => findingLine(f, root)));
  }
  return lines.join('\n');
}
