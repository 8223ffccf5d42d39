// The platform's own upload command: `tools.<tool>.upload.pattern` from platform.txt, expanded
// with the tool's keys scoped (inside a tool's recipe its `tools.X.` prefix is dropped) and the
// runtime keys arduino-cli sets (serial.port, upload.verbose, upload.verify, build.path …).
import { basename } from 'node:path';
import { expandReferences } from '../../context-providers/arduino/properties.js';
// The recipe splitter the context provider uses for compile recipes: quotes group, as arduino-cli splits.
import { splitCommandLine } from '../../context-providers/arduino/variant-header.js';

export interface RecipeInput {
  /** The board's resolved build properties (arduino-builder -dump-prefs, board details, resolver). */
  properties: Record<string, string>;
  port: string;
  buildPath: string;
  /** The sketch name: the image is `<buildPath>/<sketchName>.ino.hex`. */
  sketchName: string;
  verify: boolean;
  verbose: boolean;
}

export interface UploadRecipe {
  tool: string;
  argv: string[];
  use1200bpsTouch: boolean;
  waitForUploadPort: boolean;
}

export function uploadRecipe(input: RecipeInput): UploadRecipe {
  const board = input.properties;
  const toolRef = board['upload.tool.default'] ?? board['upload.tool.serial'] ?? board['upload.tool'];
  if (!toolRef) throw new Error(`the board defines no upload.tool; it cannot be uploaded to over a serial port`);
  // `arduino:avrdude` names a tool of another vendor's platform; its keys live under the bare name.
  const tool = toolRef.includes(':') ? toolRef.slice(toolRef.indexOf(':') + 1) : toolRef;
  const prefix = `tools.${tool}.`;
  const merged: Record<string, string> = { ...board };
  for (const [key, value] of Object.entries(board)) {
    if (key.startsWith(prefix)) merged[key.slice(prefix.length)] = value;
  }
  const pattern = merged['upload.pattern'];
  if (!pattern) throw new Error(`platform.txt has no tools.${tool}.upload.pattern for this board`);
  Object.assign(merged, {
    'serial.port': input.port,
    'serial.port.file': basename(input.port),
    'upload.port.address': input.port,
    'upload.port.protocol': 'serial',
    'build.path': input.buildPath,
    'build.project_name': `${input.sketchName}.ino`,
    'upload.verbose': merged[input.verbose ? 'upload.params.verbose' : 'upload.params.quiet'] ?? '',
    'upload.verify': input.verify ? (merged['upload.params.verify'] ?? '') : (merged['upload.params.noverify'] ?? ''),
  });
  const expanded = expandReferences(pattern, (key) => merged[key]);
  const unresolved = [...expanded.matchAll(/\{([^{}\s]+)\}/g)].map((match) => match[1]);
  if (unresolved.length > 0) {
    throw new Error(`tools.${tool}.upload.pattern still refers to ${unresolved.map((k) => `{${k}}`).join(', ')} after expansion`);
  }
  return {
    tool,
    argv: splitCommandLine(expanded),
    use1200bpsTouch: merged['upload.use_1200bps_touch'] === 'true',
    waitForUploadPort: merged['upload.wait_for_upload_port'] === 'true',
  };
}
