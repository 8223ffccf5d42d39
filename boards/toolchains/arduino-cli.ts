// arduino-cli as a build tool and board database. The JSON flag changed in 1.0 (`--json`;
// before: `--format json`), so the version is asked once and the flag chosen from it.
import { mkdirSync } from 'node:fs';
import { loadExeca } from '../packages.js';
import {
  buildProperties,
  compileOutcome,
  detectedPorts,
  installedLibraries,
  installedPlatforms,
  type DetectedPort,
  type InstalledLibrary,
  type InstalledPlatform,
} from './arduino-cli-json.js';
import { ToolchainError, type BuildTool, type CompileRequest, type CompileResult } from './build-tool.js';
import { buildFolder, findImage, locateSketch } from './sketch.js';

export class ArduinoCli implements BuildTool {
  readonly name = 'arduino-cli' as const;
  private version: Promise<string> | undefined;

  /** Given before every command: the configuration file to use (Arduino IDE 2.x keeps its own). */
  readonly globalArgs: string[];

  constructor(
    readonly executable: string,
    options: { configFile?: string } = {},
  ) {
    this.globalArgs = options.configFile ? ['--config-file', options.configFile] : [];
  }

  /** `1.0.4`, `0.35.3`, … from `arduino-cli version`. */
  cliVersion(): Promise<string> {
    this.version ??= loadExeca().then((execa) => execa(this.executable, [...this.globalArgs, 'version'], { reject: false })).then((result) => {
      const version = /Version:\s*(\S+)/.exec(result.stdout)?.[1];
      if (!version) throw new ToolchainError(`${this.executable} version printed no version: ${result.all ?? result.stderr}`);
      return version;
    });
    return this.version;
  }

  async compile(request: CompileRequest): Promise<CompileResult> {
    const sketch = locateSketch(request.sketch);
    const buildPath = request.buildPath ?? buildFolder(sketch.dir, request.fqbn);
    mkdirSync(buildPath, { recursive: true });
    const args = [
      ...this.globalArgs,
      'compile',
      '-b',
      request.fqbn,
      '--build-path',
      buildPath,
      ...Object.entries(request.buildProperties ?? {}).flatMap(([key, value]) => ['--build-property', `${key}=${value}`]),
      ...(request.libraries ?? []).flatMap((dir) => ['--libraries', dir]),
      ...(await this.jsonFlag()),
      sketch.dir,
    ];
    const execa = await loadExeca();
    const finished = await execa(this.executable, args, {
      reject: false,
      env: { NO_COLOR: 'true' },
      cancelSignal: request.signal,
    });
    if (finished.isCanceled) throw new ToolchainError(`compile of ${sketch.dir} was cancelled`);
    const outcome = compileOutcome(this.parse(finished.stdout, args));
    for (const line of outcome.output.split('\n')) if (line) request.onOutput?.(line);
    return {
      success: outcome.success,
      tool: this.name,
      sketch: sketch.dir,
      fqbn: request.fqbn,
      buildPath: outcome.buildPath ?? buildPath,
      image: outcome.success ? findImage(outcome.buildPath ?? buildPath, sketch.name) : undefined,
      diagnostics: outcome.diagnostics,
      ...(outcome.flash ? { flash: outcome.flash } : {}),
      ...(outcome.ram ? { ram: outcome.ram } : {}),
      libraries: outcome.libraries,
      output: outcome.output,
      command: [this.executable, ...args],
    };
  }

  async boardProperties(fqbn: string): Promise<Record<string, string>> {
    return buildProperties(await this.json(['board', 'details', '-b', fqbn, '--show-properties=expanded']));
  }

  async boardList(): Promise<DetectedPort[]> {
    return detectedPorts(await this.json(['board', 'list']));
  }

  async libraries(): Promise<InstalledLibrary[]> {
    return installedLibraries(await this.json(['lib', 'list']));
  }

  async platforms(): Promise<InstalledPlatform[]> {
    return installedPlatforms(await this.json(['core', 'list']));
  }

  private async jsonFlag(): Promise<string[]> {
    const major = Number((await this.cliVersion()).split('.')[0]);
    return major >= 1 ? ['--json'] : ['--format', 'json'];
  }

  private async json(args: string[]): Promise<unknown> {
    const full = [...this.globalArgs, ...args, ...(await this.jsonFlag())];
    const execa = await loadExeca();
    const finished = await execa(this.executable, full, { reject: false, env: { NO_COLOR: 'true' } });
    if (finished.exitCode !== 0) {
      throw new ToolchainError(
        `${this.executable} ${full.join(' ')} failed (exit ${finished.exitCode}): ${(finished.stderr || finished.stdout).trim().slice(0, 500)}`,
      );
    }
    return this.parse(finished.stdout, full);
  }

  private parse(stdout: string, args: string[]): unknown {
    try {
      return JSON.parse(stdout) as unknown;
    } catch {
      throw new ToolchainError(
        `${this.executable} ${args.join(' ')} printed no JSON (${stdout.trim().slice(0, 200) || 'nothing'}); is it arduino-cli 0.35 or newer?`,
      );
    }
  }
}
