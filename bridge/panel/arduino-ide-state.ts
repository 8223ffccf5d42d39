// Checks the Arduino IDE state an IDE face sends with a selection (board details' build
// properties, data and sketchbook folders, the last compile) before it reaches a context
// provider: everything is a plain value of the expected type, or the message is refused.
import type { ArduinoCompileSummary, ArduinoIdeState } from '../../context-providers/types.js';

/** arduino-cli's board details for the biggest boards have a few thousand keys. */
const MAX_PROPERTIES = 20_000;

type Checked<T> = { value: T } | { error: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const optionalString = (value: unknown): value is string | undefined => value === undefined || typeof value === 'string';

export function checkArduinoIdeState(value: unknown): Checked<ArduinoIdeState> {
  if (!isObject(value)) return { error: 'arduinoIde must be an object' };
  const { fqbn, buildProperties, dataDir, userDir, lastCompile } = value;
  if (!optionalString(fqbn) || !optionalString(dataDir) || !optionalString(userDir)) return { error: 'arduinoIde.fqbn, dataDir and userDir must be strings' };
  const state: ArduinoIdeState = {};
  if (fqbn) state.fqbn = fqbn;
  if (dataDir) state.dataDir = dataDir;
  if (userDir) state.userDir = userDir;
  if (buildProperties !== undefined) {
    if (!isObject(buildProperties)) return { error: 'arduinoIde.buildProperties must map property names to strings' };
    const entries = Object.entries(buildProperties);
    if (entries.length > MAX_PROPERTIES) return { error: `arduinoIde.buildProperties has ${entries.length} keys (at most ${MAX_PROPERTIES})` };
    if (!entries.every(([, v]) => typeof v === 'string')) return { error: 'arduinoIde.buildProperties must map property names to strings' };
    state.buildProperties = buildProperties as Record<string, string>;
  }
  if (lastCompile !== undefined) {
    const compile = checkCompileSummary(lastCompile);
    if ('error' in compile) return compile;
    state.lastCompile = compile.value;
  }
  return { value: state };
}

function checkCompileSummary(value: unknown): Checked<ArduinoCompileSummary> {
  const bad = (what: string) => ({ error: `arduinoIde.lastCompile.${what}` });
  if (!isObject(value)) return bad('must be an object');
  if (!optionalString(value.buildPath)) return bad('buildPath must be a string');
  const sections = value.sections ?? [];
  if (!Array.isArray(sections) || !sections.every((s) => isObject(s) && typeof s.name === 'string' && Number.isFinite(s.size) && Number.isFinite(s.maxSize))) {
    return bad('sections must be [{name, size, maxSize}]');
  }
  const libraries = value.libraries ?? [];
  if (!Array.isArray(libraries) || !libraries.every((l) => isObject(l) && typeof l.name === 'string' && optionalString(l.version) && optionalString(l.installDir))) {
    return bad('libraries must be [{name, version?, installDir?}]');
  }
  const platform = value.platform;
  if (platform !== undefined && !(isObject(platform) && typeof platform.id === 'string' && optionalString(platform.version) && optionalString(platform.installDir))) {
    return bad('platform must be {id, version?, installDir?}');
  }
  return {
    value: {
      ...(value.buildPath ? { buildPath: value.buildPath } : {}),
      sections: sections.map((s) => ({ name: s.name as string, size: s.size as number, maxSize: s.maxSize as number })),
      libraries: libraries.map((l) => ({ name: l.name as string, ...(l.version ? { version: l.version as string } : {}), ...(l.installDir ? { installDir: l.installDir as string } : {}) })),
      ...(platform ? { platform: platform as ArduinoCompileSummary['platform'] } : {}),
    },
  };
}
