// What an MPLAB build is asked and what it answers, for both ways of building (build.ts for
// MPLAB X projects, cmake-build.ts for MPLAB for VS Code projects).
import type { Finding } from '../../platform/finding.js';

export interface BuildOptions {
  /** The `.X` folder, or the VS Code workspace folder holding `.vscode/*.mplab.json`. */
  project: string;
  configuration?: string;
  /** Make variables given on the command line, e.g. `MP_CC` to choose a compiler; CMake cache variables (`-D`) for VS Code projects. */
  makeVariables?: Record<string, string>;
  /** VS Code projects: build `cmake/<project>/<conf>.production/` instead of `<conf>/`. */
  production?: boolean;
  /** VS Code projects: pack roots for PACK_REPO_PATH; default: MPLAB X's packs and ~/.mchp_packs. */
  packRoots?: string[];
  /** prjMakefilesGenerator(.sh); default: searched in MPLAB X installs and $MPLABX_HOME. */
  generator?: string;
  env?: Record<string, string>;
  signal?: AbortSignal;
  onOutput?: (text: string) => void;
}

export interface BuildResult {
  ok: boolean;
  configuration?: string;
  exitCode?: number;
  command?: string[];
  /** Every command run, in order (VS Code projects: configure, then build). */
  commands?: string[][];
  /** The image the build wrote, when the project says where. */
  image?: string;
  diagnostics: Finding[];
  output: string;
  /** Why the build could not start or failed, phrased for the user. */
  message: string;
}
