// Compact markdown of an MPLAB context for a prompt. Every fact carries its
// source, written relative to the project folder to keep lines short.
import { dirname, relative, isAbsolute } from 'node:path';
import type { HardwareContext, Pin, SourceRef } from '../types.js';

const maxFunctions = 8;
const maxMissing = 8;

export function renderMplabContext(context: HardwareContext): string {
  const base = context.inputs[0] ? dirname(dirname(context.inputs[0])) : undefined;
  // Pack files are cited by pack name (`ATmega_DFP/atdf/ATmega328P.atdf`): the pack's folder is printed once.
  const packs = context.libraries.filter((l) => l.location === 'pack' && l.path).map((l) => ({ name: l.name ?? l.include, path: l.path as string }));
  const at = (source: SourceRef | undefined): string => {
    if (!source) return '';
    const pack = packs.find((p) => source.file.startsWith(`${p.path}/`));
    const inside = (folder: string | undefined) => folder && isAbsolute(source.file) && !relative(folder, source.file).startsWith('..');
    const file = pack ? `${pack.name}/${relative(pack.path, source.file)}` : inside(base) ? relative(base as string, source.file) : source.file;
    return ` (${file}${source.line ? `:${source.line}` : ''})`;
  };
  const { board, toolchain, project } = context;
  const lines: string[] = [`## MPLAB project: ${board.name}${base ? ` in ${base}` : ''}`];
  lines.push(`- Device: ${board.id}${board.architecture ? `, ${board.architecture}` : ''}${at(board.sources?.device)}`);
  if (project?.configuration) {
    const others = (project.configurations ?? []).filter((c) => c.name !== project.configuration);
    const current = project.configurations?.find((c) => c.name === project.configuration);
    lines.push(
      `- Configuration in use: ${project.configuration}${at(current?.source)}${others.length ? `; others: ${others.map((c) => `${c.name}${c.device && c.device !== board.id ? ` (${c.device})` : ''}`).join(', ')}` : ''}`,
    );
  }
  if (toolchain) {
    lines.push(`- Toolchain: ${toolchain.name}${toolchain.version ? ` ${toolchain.version}` : ''}${toolchain.path ? ` at ${toolchain.path}` : ''}${at(toolchain.source)}`);
    if (toolchain.upload?.tool) lines.push(`- Programmer/debugger: ${toolchain.upload.tool}`);
    const options = toolchain.options ?? [];
    if (options.length > 0) {
      const grouped = new Map<string, { values: string[]; source?: SourceRef }>();
      for (const o of options) {
        const entry = grouped.get(o.name) ?? { values: [], source: o.source };
        entry.values.push(o.value);
        grouped.set(o.name, entry);
      }
      lines.push('- Compiler options:');
      for (const [name, { values, source }] of grouped) lines.push(`  - ${name}: ${values.join(', ')}${at(source)}`);
    }
  }
  for (const pack of context.libraries.filter((l) => l.location === 'pack')) {
    lines.push(`- Device pack: ${pack.name} ${pack.version ?? ''}${pack.path ? ` installed at ${pack.path}` : ' (not installed here)'}${at(pack.source)}`.replace(/ {2,}/g, ' '));
  }
  for (const limit of context.limits) lines.push(`- ${capitalise(limit.name)}: ${limit.value}${limit.unit ? ` ${limit.unit}` : ''}${at(limit.source)}`);
  renderFiles(context, lines);
  if (context.buses.length > 0) {
    lines.push('', '### Buses');
    for (const bus of context.buses) lines.push(`- ${bus.name} (${bus.kind}): ${Object.entries(bus.pins).map(([role, pad]) => `${role} ${pad}`).join(', ')}${at(bus.source)}`);
  }
  if (context.pins.length > 0) {
    lines.push('', '### Pins');
    for (const pin of context.pins) lines.push(`- ${pinLine(pin)}${at(pin.source)}`);
  }
  if (context.notes && context.notes.length > 0) {
    lines.push('', '### Device notes');
    for (const note of context.notes) lines.push(`- ${note.topic}: ${note.text}${at(note.source)}`);
  }
  if (context.warnings.length > 0) {
    lines.push('', '### Warnings');
    for (const w of context.warnings) lines.push(`- ${w.message}`);
  }
  return `${lines.join('\n')}\n`;
}

function renderFiles(context: HardwareContext, lines: string[]): void {
  const files = context.project?.files ?? [];
  if (files.length === 0) return;
  const sources = files.filter((f) => f.role === 'source');
  const headers = files.filter((f) => f.role === 'header');
  const missing = files.filter((f) => f.missing && f.role !== 'other');
  lines.push(`- Files: ${sources.length} sources (${sources.slice(0, 6).map((f) => f.path).join(', ')}${sources.length > 6 ? ', …' : ''}), ${headers.length} headers`);
  if (missing.length > 0) {
    lines.push(`- Missing files: ${missing.length} (${missing.slice(0, maxMissing).map((f) => f.path).join(', ')}${missing.length > maxMissing ? ', …' : ''})`);
  }
}

function pinLine(pin: Pin): string {
  const [pad, ...names] = pin.names;
  const head = `${pad}${names.length ? ` = ${names.join(', ')}` : ''}${typeof pin.number === 'number' ? ` [pin ${pin.number}]` : ''}`;
  const parts: string[] = [];
  if (pin.assigned?.length) parts.push(`set as ${pin.assigned.join(', ')}`);
  const fns = pin.functions ?? [];
  if (fns.length) parts.push(`${fns.slice(0, maxFunctions).join(', ')}${fns.length > maxFunctions ? ', …' : ''}`);
  return parts.length ? `${head}: ${parts.join('; ')}` : head;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
