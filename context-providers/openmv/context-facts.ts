// The board's facts as context limits and notes: frame buffer budgets of both firmware
// generations, the largest frame per pixel format, the sensors, the camera API the scripts use
// against the camera's firmware, and the camera drive's openmv.config.
import { basename } from 'node:path';
import type { HardwareContext, SourceRef } from '../types.js';
import type { ScriptAnalysis } from './analyze-script.js';
import { frameBufferBudget, type Generation, type OpenMvBoard } from './board-facts.js';
import { cameraApi } from './camera-api.js';
import type { ScriptApi } from './script-checks.js';
import { bytesText, largestFits, sizeText } from './frame-budget.js';
import type { OpenMvConfig } from './openmv-config.js';
import { isBefore47 } from './script-checks.js';

/** `openmv/openmv v4.8.1 boards/X/omv_boardconfig.h:30` → a SourceRef naming the upstream file. */
export function upstreamRef(text: string): SourceRef {
  const [repository, tag, path] = text.split(' ');
  const [file, line] = (path ?? '').split(':');
  if (!tag || !file) return { file: text };
  const number = Number(line);
  return { file: `${repository}@${tag}/${file}`, ...(Number.isInteger(number) && number > 0 ? { line: number } : {}) };
}

const apiText = (api: ScriptApi): string =>
  ({
    sensor: 'the sensor module (firmware 4.x API)',
    csi: `csi.CSI() objects (firmware 5.x API, present since ${cameraApi().csiFirstFirmware})`,
    mixed: 'both the sensor module and csi.CSI() objects',
    none: 'no camera calls',
  })[api];

export function boardFacts(
  context: HardwareContext,
  board: OpenMvBoard,
  generation: Generation,
  analyses: ScriptAnalysis[],
  firmware: string | undefined,
  config: OpenMvConfig | undefined,
): void {
  const notes = (context.notes ??= []);
  const facts = board.firmware[generation];
  notes.push({ topic: 'sensors', text: facts.sensors.join(', '), source: upstreamRef(facts.sources.sensors) });
  const cameraFirmware = firmware
    ? `the camera runs firmware ${firmware} (${generation === '5' ? 'csi.CSI() API; sensor kept for old scripts' : 'sensor API'})`
    : 'the camera firmware is unknown (4.x runs the sensor API, 5.x csi.CSI() with sensor kept)';
  for (const analysis of analyses) {
    notes.push({ topic: 'camera API', text: `${analysis.file ? basename(analysis.file) : 'the script'} uses ${apiText(analysis.api)}; ${cameraFirmware}` });
  }
  if (analyses.length === 0) notes.push({ topic: 'camera API', text: cameraFirmware });

  const older = board.firmware['4'].v46;
  if (older) {
    context.limits.push({
      name: `frame buffer, firmware before 4.7 (OMV_FB_SIZE${isBefore47(firmware) ? ', in use' : ''}); IDE JPEG buffer ${sizeText(older.jpegBytes)} (OMV_JPEG_SIZE)`,
      value: older.fbBytes,
      unit: 'bytes',
      source: upstreamRef(older.sources.fbBytes),
    });
  }
  for (const g of ['4', '5'] as Generation[]) {
    const budget = frameBufferBudget(board, g);
    context.limits.push({
      name: `frame buffer, firmware ${g === '4' ? '4.7+' : `${g}.x`} (${budget.define})${g === generation && !isBefore47(firmware) ? ', in use' : ''}`,
      value: budget.bytes,
      unit: 'bytes',
      source: upstreamRef(budget.source),
    });
  }
  if (board.firmware['4'].fbAllocBytes !== undefined) {
    context.limits.push({
      name: 'fb_alloc minimum, firmware 4.x (OMV_FB_ALLOC_SIZE)',
      value: board.firmware['4'].fbAllocBytes,
      unit: 'bytes',
      source: upstreamRef(board.firmware['4'].sources.fbAllocBytes),
    });
  }
  const budget = frameBufferBudget(board, generation, isBefore47(firmware));
  const fits = largestFits(budget.bytes)
    .filter((entry) => entry.largest)
    .map((entry) => {
      const largest = entry.largest!;
      const also = entry.largest4by3 ? `; 4:3 ${entry.largest4by3.name}` : '';
      return `${entry.format} ${largest.name} ${largest.width}×${largest.height} (${bytesText(largest.bytes)} bytes${also})`;
    });
  context.limits.push({
    name: `largest frame per pixel format in one frame buffer of about ${sizeText(budget.bytes)} (approximate; JPEG estimated)`,
    value: fits.join(', '),
    source: upstreamRef(budget.source),
  });
  if (config) {
    for (const entry of config.entries) {
      // Wi-Fi keys and passwords stay on the camera; the agent only needs to know they are set.
      const value = /key|pass/i.test(entry.key) ? '(set, not shown)' : entry.value;
      notes.push({ topic: OPENMV_CONFIG_TOPIC, text: `[${entry.section}] ${entry.key} = ${value}`, source: { file: config.path, line: entry.line } });
    }
  }
}

export const OPENMV_CONFIG_TOPIC = 'openmv.config';
