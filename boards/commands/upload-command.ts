// `upload`: builds, asks the permission broker with the exact target, then writes; a monitor on
// the port pauses meanwhile.
import { z } from 'zod';
import type { CommandIo, Outcome } from '../command.js';
import type { OperationContext } from '../operation-context.js';
import { describeUpload } from '../upload/consent.js';
import { upload, uploadTarget } from '../upload/upload.js';
import { UsageError } from './arguments.js';
import { compileForCommand } from './compile-command.js';
import type { uploadInput } from '../operation-inputs.js';
import type { BoardCommandDeps } from './deps.js';
import { sketchTarget } from './sketch-target.js';
import { detectBuildTool } from '../toolchains/detect.js';

export interface UploadData {
  sketch: string;
  fqbn: string;
  port: string;
  uploaded: boolean;
  image?: string;
  problem?: string;
}

export async function uploadRun(input: z.output<z.ZodObject<typeof uploadInput>>, deps: OperationContext, io: CommandIo): Promise<Outcome<UploadData>> {
    const target = await sketchTarget(io.cwd, input.sketch, input.fqbn, undefined);
    const port = input.port ?? target.defaultPort ?? (await onlyMatchingPort(deps, target.fqbn));
    const tool = deps.tool ?? detectBuildTool();
    const done = (uploaded: boolean, more: Partial<UploadData> = {}): Outcome<UploadData> => ({ exitCode: uploaded ? 0 : 1, data: { sketch: target.sketch.dir, fqbn: target.fqbn, port, uploaded, ...more } });
    const build = await compileForCommand({ ...deps, tool }, target.sketch.dir, target.fqbn, io, input.verbose === true);
    if (!build.success) return done(false, { problem: 'the sketch did not compile' });

    const listing = await deps.hub.listPorts();
    const boardName = listing.ports.find((p) => p.path === port)?.boards.find((b) => b.fqbn === target.fqbn)?.name;
    const request = uploadTarget(target.sketch.dir, target.fqbn, port, boardName);
    const consent = await deps.requestUploadConsent(request, describeUpload(request));
    if (!consent) {
      io.write(`Upload cancelled: permission to write to ${port} was not given.\n`);
      return done(false, { problem: 'permission was not given' });
    }
    io.write(`Uploading to ${port}\n`);
    const result = await upload({
      sketch: target.sketch.dir,
      fqbn: target.fqbn,
      port,
      consent,
      tool,
      hub: deps.hub,
      verbose: input.verbose === true,
      installed: await deps.arduinoPlatforms?.(),
      onOutput: (line) => io.write(`${line}\n`),
      signal: io.signal,
    });
    io.write(result.success ? `Uploaded ${result.image} to ${result.port}\n` : `Upload failed: ${result.problem}\n`);
    return done(result.success, { ...(result.image ? { image: result.image } : {}), ...(result.problem ? { problem: result.problem } : {}) });
}

/** Without --port: the one port whose USB id matches the board, if there is exactly one. */
async function onlyMatchingPort(deps: BoardCommandDeps, fqbn: string): Promise<string> {
  const listing = await deps.hub.listPorts();
  const matching = listing.ports.filter((port) => port.boards.some((board) => board.fqbn === fqbn));
  if (matching.length === 1) return matching[0].path;
  const known = listing.ports.map((port) => port.path).join(', ') || 'none found';
  throw new UsageError(
    matching.length === 0
      ? `no port given and none identifies as ${fqbn}; pass --port (ports: ${known})`
      : `several ports identify as ${fqbn} (${matching.map((p) => p.path).join(', ')}); pass --port`,
  );
}
