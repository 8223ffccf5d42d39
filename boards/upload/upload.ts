// Writing a built sketch to a board: through arduino-cli when it is the toolchain, otherwise
// through the platform's own upload recipe (avrdude for AVR), with the board and its tool
// resolved as the Arduino context provider resolves them. Any monitor on the port is paused for
// the duration and resumed afterwards, instead of the upload failing on a busy port.
import { loadExeca } from '../packages.js';
import { discoverPlatforms, type InstalledPlatforms } from '../../platform/arduino/platforms.js';
import { resolveFqbn } from '../../platform/arduino/resolve.js';
import type { SerialHub } from '../serial/hub.js';
import { listPorts } from '../serial/port-list.js';
import { touch1200, waitForUploadPort } from '../serial/upload-port.js';
import type { BuildTool } from '../toolchains/build-tool.js';
import { detectBuildTool } from '../toolchains/detect.js';
import { buildFolder, findImage, locateSketch } from '../toolchains/sketch.js';
import { uploadProblem, verifiedBytes } from './avrdude-output.js';
import { checkConsent, type UploadConsent, type UploadTarget } from './consent.js';
import { uploadRecipe } from './recipe.js';

export interface UploadRequest {
  sketch: string;
  fqbn: string;
  port: string;
  /** From the permission broker (`grantUpload`), for exactly this image, board and port. */
  consent: UploadConsent;
  /** Defaults to `detectBuildTool()`. */
  tool?: BuildTool;
  /** The bridge's hub: monitors on `port` pause during the upload. */
  hub?: SerialHub;
  /**
   * The installed Arduino platforms as the Arduino context provider found them, so a recipe
   * upload runs the command the agent's board context describes; discovered with the provider's
   * defaults when absent. Unused when arduino-cli uploads.
   */
  installed?: InstalledPlatforms;
  /** Read the flash back and compare (default true). */
  verify?: boolean;
  verbose?: boolean;
  onOutput?: (line: string) => void;
  signal?: AbortSignal;
}

export interface UploadResult {
  success: boolean;
  /** The port written to: after a 1200-bps reset the bootloader may enumerate under another name. */
  port: string;
  image: string;
  command: string[];
  /** The uploader's output (the last 64 KiB). */
  output: string;
  verifiedBytes?: number;
  /** What went wrong and what to try, when it failed. */
  problem?: string;
}

const OUTPUT_LIMIT = 64 * 1024;

/** The image, board and port an upload of `sketch` would write: what the broker asks about. */
export function uploadTarget(sketch: string, fqbn: string, port: string, boardName?: string): UploadTarget {
  const location = locateSketch(sketch);
  const buildPath = buildFolder(location.dir, fqbn);
  const image = findImage(buildPath, location.name);
  if (!image) throw new Error(`nothing to upload for ${fqbn}: compile ${location.dir} first (no image in ${buildPath})`);
  return { image, fqbn, port, ...(boardName ? { boardName } : {}) };
}

export async function upload(request: UploadRequest): Promise<UploadResult> {
  const target = uploadTarget(request.sketch, request.fqbn, request.port);
  checkConsent(request.consent, target);
  const tool = request.tool ?? detectBuildTool();
  const run = (): Promise<UploadResult> =>
    tool.name === 'arduino-cli' ? uploadWithCli(request, [tool.executable, ...(tool.globalArgs ?? [])], target.image) : uploadWithRecipe(request, target.image);
  return request.hub ? request.hub.whilePaused(request.port, `upload of ${target.image}`, run) : run();
}

async function uploadWithCli(request: UploadRequest, cli: string[], image: string): Promise<UploadResult> {
  const location = locateSketch(request.sketch);
  // arduino-cli does the 1200-bps touch and the port wait itself.
  const argv = [
    ...cli,
    'upload',
    '-p',
    request.port,
    '-b',
    request.fqbn,
    '--input-dir',
    buildFolder(location.dir, request.fqbn),
    ...(request.verify === false ? [] : ['--verify']),
    ...(request.verbose ? ['--verbose'] : []),
    location.dir,
  ];
  return runUploader(argv, request, request.port, image);
}

async function uploadWithRecipe(request: UploadRequest, image: string): Promise<UploadResult> {
  const location = locateSketch(request.sketch);
  const installed = request.installed ?? (await discoverPlatforms());
  const board = resolveFqbn(request.fqbn, installed);
  const recipeFor = (port: string) =>
    uploadRecipe({
      board,
      installed,
      port,
      buildPath: buildFolder(location.dir, request.fqbn),
      sketchName: location.name,
      verify: request.verify !== false,
      verbose: request.verbose === true,
    });
  const recipe = recipeFor(request.port);
  let port = request.port;
  if (recipe.use1200bpsTouch) {
    const paths = async (): Promise<string[]> =>
      (await (request.hub ? request.hub.listPorts() : listPorts([]))).ports.map((info) => info.path);
    const before = await paths();
    request.onOutput?.(`resetting ${port} into its bootloader (1200-bps touch)`);
    await touch1200(port);
    if (recipe.waitForUploadPort) {
      port = await waitForUploadPort({ before, port, list: paths, signal: request.signal });
      if (port !== request.port) request.onOutput?.(`bootloader appeared on ${port}`);
    }
  }
  const argv = port === request.port ? recipe.argv : recipeFor(port).argv;
  return runUploader(argv, request, port, image);
}

async function runUploader(argv: string[], request: UploadRequest, port: string, image: string): Promise<UploadResult> {
  let output = '';
  const execa = await loadExeca();
  const child = execa(argv[0], argv.slice(1), {
    all: true,
    reject: false,
    env: { LC_ALL: 'C', NO_COLOR: 'true' },
    cancelSignal: request.signal,
  });
  for await (const line of child.iterable({ from: 'all' })) {
    output = (output + line + '\n').slice(-OUTPUT_LIMIT);
    request.onOutput?.(line);
  }
  const finished = await child;
  const result: UploadResult = { success: finished.exitCode === 0, port, image, command: argv, output };
  const verified = verifiedBytes(output);
  if (verified !== undefined) result.verifiedBytes = verified;
  if (finished.isCanceled) return { ...result, success: false, problem: `upload to ${port} was cancelled` };
  if (finished.exitCode === undefined) {
    return { ...result, success: false, problem: `cannot run ${argv[0]}: ${finished.shortMessage}` };
  }
  const problem = uploadProblem(output, port);
  if (!result.success) {
    result.problem = problem ?? `${argv[0]} exited with ${finished.exitCode}; see its output above`;
  } else if (problem?.startsWith('verify failed')) {
    result.success = false;
    result.problem = problem;
  }
  return result;
}
