export { mplabxCommands, parseProjectArgs, type MplabxCommandDeps, type ProgramRequest } from './commands.js';
export { buildMplabProject, findMakefileGenerator, type BuildOptions, type BuildResult } from './build.js';
export {
  programMplabProject,
  ipecmdArguments,
  ipecmdPartName,
  ipecmdToolCode,
  findIpecmd,
  type ProgramConsent,
  type ProgramOptions,
  type ProgramResult,
  type IpecmdRequest,
} from './ipecmd.js';
export { parseXcDiagnostics } from './diagnostics.js';
