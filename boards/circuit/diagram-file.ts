// Where a sketch's diagram is: `--diagram FILE`, else `diagram.json` beside the sketch (where
// Wokwi for VS Code and wokwi-cli keep it), else none.
import { existsSync } from 'node:fs';
import { join } from '../../platform/path-join.js';
import { boardPartFqbn } from '../../platform/circuit/board-part.js';
import { readDiagram, type Diagram } from '../../platform/circuit/diagram.js';

export function diagramFor(sketchDir: string, file: string | undefined): Diagram | undefined {
  if (file) return readDiagram(file);
  const beside = join(sketchDir, 'diagram.json');
  return existsSync(beside) ? readDiagram(beside) : undefined;
}

/** The FQBN the diagram's board part stands for. */
export function diagramFqbn(diagram: Diagram | undefined): string | undefined {
  for (const part of diagram?.parts ?? []) {
    const fqbn = boardPartFqbn(part.type);
    if (fqbn) return fqbn;
  }
  return undefined;
}
