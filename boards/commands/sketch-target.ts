// Which sketch and board a command means: the positional path (else the terminal's folder),
// then --fqbn, else the sketch's sketch.yaml default.
import { resolve } from 'node:path';
import { locateSketch, sketchDefaults, type SketchLocation } from '../toolchains/sketch.js';
import { UsageError } from './arguments.js';

export interface SketchTarget {
  sketch: SketchLocation;
  fqbn: string;
  defaultPort?: string;
}

/** `fallback`: a board named by something beside the sketch (a diagram.json's board part), last. */
export async function sketchTarget(cwd: string, path: string | undefined, fqbn: string | undefined, usage: string | undefined, fallback?: (sketchDir: string) => string | undefined): Promise<SketchTarget> {
  const sketch = locateSketch(resolve(cwd, path ?? '.'));
  const defaults = await sketchDefaults(sketch.dir);
  const board = fqbn ?? defaults.fqbn ?? fallback?.(sketch.dir);
  if (!board) {
    throw new UsageError(`no board for ${sketch.dir}: pass --fqbn (e.g. arduino:avr:uno) or set default_fqbn in sketch.yaml${fallback ? ' (or put a diagram.json with a board part beside the sketch)' : ''}`, usage);
  }
  return { sketch, fqbn: board, ...(defaults.port ? { defaultPort: defaults.port } : {}) };
}
