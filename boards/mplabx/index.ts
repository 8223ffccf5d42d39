export { buildRun, programRun } from './commands.js';
export { buildMplabProject, findMakefileGenerator, type BuildOptions, type BuildResult } from './build.js';
export {
  programMplabProject,
  resolveProgramTarget,
  ipecmdArguments,
  ipecmdPartName,
  ipecmdToolCode,
  findIpecmd,
  type ProgramOptions,
  type ProgramResult,
  type IpecmdRequest,
} from './ipecmd.js';
export { parseXcDiagnostics } from './diagnostics.js';
export { describeProgram, grantProgram, consentProblem, type ProgramConsent, type ProgramTarget } from './program-consent.js';
