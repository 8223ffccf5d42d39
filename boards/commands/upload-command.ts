// `boardbridge upload [sketch] [--port P] [--fqbn F] [--verbose]`: builds, asks the permission
// broker, then writes; a monitor on the port pauses meanwhile.
import type { InProcessCommand } from '../command.js';
import { describeUpload } from '../upload/consent.js';
import { upload, uploadTarget } from '../upload/upload.js';
import { parseCommand, UsageError } from './arguments.js';
import { compileForCommand } from './compile-command.js';
import type { BoardCommandDeps } from './deps.js';
import { sketchTarget } from './sketch-target.js';
import { detectBuildTool } from '../toolchains/detect.js';

const USAGE = 'boardbridge upload [sketch] [--port P] [--fqbn F] [--verbose]';

export function uploadCommand(deps: BoardCommandDeps): InProcessCommand {
  return async (argv, io) => {
    const { values, positionals } = parseCommand(
      {
        args: argv,
        allowPositionals: true,
        options: { port: { type: 'string', short: 'p' }, fqbn: { type: 'string', short: 'b' }, verbose: { type: 'boolean' } },
      },
      USAGE,
    );
    const target = sketchTarget(io.cwd, positionals[0], values.fqbn, USAGE);
    const port = values.port ?? target.defaultPort ?? (await onlyMatchingPort(deps, target.fqbn));
    const tool = deps.tool ?? detectBuildTool();
    const build = await compileForCommand({ ...deps, tool }, target.sketch.dir, target.fqbn, io, values.verbose === true);
    if (!build.success) return 1;

    const listing = await deps.hub.listPorts();
    const boardName = listing.ports.find((p) => p.path === port)?.boards.find((b) => b.fqbn === target.fqbn)?.name;
    const request = uploadTarget(target.sketch.dir, target.fqbn, port, boardName);
    const consent = await deps.requestUploadConsent(request, describeUpload(request));
    if (!consent) {
      io.write(`Upload cancelled: permission to write to ${port} was not given.\n`);
      return 1;
    }
    io.write(`Uploading to ${port}\n`);
    const result = await upload({
      sketch: target.sketch.dir,
      fqbn: target.fqbn,
      port,
      consent,
      tool,
      hub: deps.hub,
      verbose: values.verbose === true,
      installed: await deps.arduinoPlatforms?.(),
      onOutput: (line) => io.write(`${line}\n`),
      signal: io.signal,
    });
    io.write(result.success ? `Uploaded ${result.image} to ${result.port}\n` : `Upload failed: ${result.problem}\n`);
    return result.success ? 0 : 1;
  };
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
    USAGE,
  );
}
