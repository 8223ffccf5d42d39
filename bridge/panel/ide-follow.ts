// Follows the project an IDE has open by watching the settings file it records it
// in. IDEs replace that file by rename (Qt's QSaveFile: a new inode) or rewrite it
// in place (NetBeans: a reader may see half a file), so the parent folder is watched
// and the file re-opened by path; a read waits for quiet (debounce) and a text that
// looks cut off is read again until it stops changing. A slow stat poll catches
// what a watcher can miss (the folder itself replaced, a new MPLAB X version folder).
// Only a real change of the followed project, script or port is reported.
import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { readRegularFile } from '../../platform/regular-file.js';
import type { Selection } from '../../context-providers/types.js';
import { errorMessage } from '../errors.js';
import { IDE_TITLE, mplabxFollowedProject, readMplabxProjects, readOpenmvState, settingsFileOf, thisEnvironment, type Environment, type IdeKind, type Read } from './ide-projects.js';

export type Followed =
  | {
      kind: 'project';
      ide: IdeKind;
      /** The folder the panel serves: the MPLAB X project, or the OpenMV script's folder. */
      workspace: string;
      selection: Selection;
      /** What a person calls it: `Blink.X`, `blob.py`. */
      name: string;
      /** More of what the IDE recorded, for the log: the camera's port and drive. */
      detail?: string;
    }
  | { kind: 'none'; ide: IdeKind; reason: string };

export interface IdeFollowerOptions {
  ide: IdeKind;
  /** `--ide-settings`: the settings file, instead of the IDE's default place. */
  settingsFile?: string;
  environment?: Environment;
  /** The followed project changed (never called for the state start() returns). */
  onChange(followed: Followed): void;
  /** The file is missing or unreadable; said once until it reads well again. */
  onProblem(message: string): void;
  debounceMs?: number;
  pollMs?: number;
}

const ENCODING: Record<IdeKind, BufferEncoding> = { mplabx: 'latin1', openmv: 'utf8' };

const MISSING_HINT: Record<IdeKind, string> = {
  mplabx: 'MPLAB X writes it within a second of opening a project or setting the main project; if it keeps its settings elsewhere (a --userdir), pass --ide-settings <file>',
  openmv: 'OpenMV IDE writes it only when it exits or its Options dialog closes; or pass --ide-settings <file>',
};

export class IdeFollower {
  private readonly title: string;
  private readonly debounceMs: number;
  private watcher?: FSWatcher;
  private watched?: { dir: string; ino: number };
  private file?: string;
  private timer?: NodeJS.Timeout;
  private poll?: NodeJS.Timeout;
  private statSeen?: string;
  private textAccepted?: string;
  private textUnsettled?: string;
  private emittedKey?: string;
  private problem?: string;
  private checking?: Promise<void>;
  private again = false;
  private started = false;
  private closed = false;
  private settle?: () => void;
  current?: Followed;
  /** How many times the file was read to the end of a check (settled), changed or not. */
  reads = 0;

  constructor(private readonly options: IdeFollowerOptions) {
    this.title = IDE_TITLE[options.ide];
    this.debounceMs = options.debounceMs ?? 300;
  }

  /** Reads the file once it is settled and starts watching; resolves to what the IDE has open now, if anything. */
  async start(): Promise<Followed | undefined> {
    const settled = new Promise<void>((resolve) => (this.settle = resolve));
    void this.runCheck();
    await settled;
    this.started = true;
    this.poll = setInterval(() => this.pollOnce(), this.options.pollMs ?? 2000);
    this.poll.unref();
    return this.current;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.poll);
    this.unwatch();
    this.settle?.();
  }

  /** A watcher event restarts the wait for quiet; the poll only asks for a read if none is due. */
  private schedule(restart = true): void {
    if (this.closed || (!restart && this.timer)) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.runCheck();
    }, this.debounceMs);
  }

  private runCheck(): Promise<void> {
    if (this.checking) {
      this.again = true;
      return this.checking;
    }
    this.checking = (async () => {
      do {
        this.again = false;
        await this.check().catch((error: unknown) => this.report(`cannot follow ${this.title}: ${errorMessage(error)}`));
      } while (this.again && !this.closed);
    })().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async check(): Promise<void> {
    if (this.closed) return;
    const place = settingsFileOf(this.options.ide, this.options.settingsFile, this.options.environment ?? thisEnvironment());
    this.file = place.file;
    if (!place.file) return this.report(this.missing(place.lookedAt));
    this.watchFolder(path.dirname(place.file));
    this.statSeen = statKey(place.file);
    let text: string;
    try {
      text = await readRegularFile(place.file, ENCODING[this.options.ide]);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return this.report(code === 'ENOENT' ? this.missing(place.file) : `cannot read ${this.title}'s settings ${place.file}: ${errorMessage(error)}`);
    }
    const read = this.interpret(text);
    const complete = read.ok && (text === '' || /[\r\n]$/.test(text)) && (read.value.kind === 'none' || existsSync(read.value.workspace));
    // Half a file (NetBeans rewrites in place) reads again after a pause; the same text twice is what the file holds.
    if (!complete && text !== this.textUnsettled) {
      this.textUnsettled = text;
      return this.schedule();
    }
    this.textUnsettled = undefined;
    this.reads++;
    if (!read.ok) {
      const keeping = this.current?.kind === 'project' ? `; the panel stays on ${this.current.name}` : '';
      return this.report(`cannot read ${this.title}'s settings ${place.file}: ${read.error}${keeping}`);
    }
    this.problem = undefined;
    if (text === this.textAccepted) return this.settle?.();
    this.textAccepted = text;
    this.accept(read.value);
  }

  private accept(value: Followed): void {
    let followed = value;
    if (followed.kind === 'project' && !existsSync(followed.workspace)) {
      followed = { kind: 'none', ide: this.options.ide, reason: `${this.title} names ${followed.workspace}, which does not exist (moved or deleted?)` };
    }
    const key = JSON.stringify(followed.kind === 'project' ? [followed.workspace, followed.selection.files, followed.selection.port] : followed.reason);
    if (key !== this.emittedKey) {
      this.emittedKey = key;
      this.current = followed;
      if (this.started) this.options.onChange(followed);
    }
    this.settle?.();
  }

  private interpret(text: string): Read<Followed> {
    const ide = this.options.ide;
    if (ide === 'mplabx') {
      const read = readMplabxProjects(text);
      if (!read.ok) return read;
      const chosen = mplabxFollowedProject(read.value);
      if ('reason' in chosen) return { ok: true, value: { kind: 'none', ide, reason: chosen.reason } };
      return { ok: true, value: { kind: 'project', ide, workspace: chosen.project, selection: {}, name: path.basename(chosen.project) } };
    }
    const read = readOpenmvState(text);
    if (!read.ok) return read;
    const { script, port, drive } = read.value;
    if (!script) return { ok: true, value: { kind: 'none', ide, reason: 'OpenMV IDE has recorded no recent script yet (it does when it exits or its Options dialog closes)' } };
    const detail = [port && `port ${port}`, drive && `drive ${drive}`].filter(Boolean).join(', ');
    return {
      ok: true,
      value: { kind: 'project', ide, workspace: path.dirname(script), selection: { files: [script], ...(port ? { port } : {}) }, name: path.basename(script), ...(detail ? { detail } : {}) },
    };
  }

  private missing(where: string): string {
    return `no ${this.title} settings at ${where}: ${MISSING_HINT[this.options.ide]}. Watching for it.`;
  }

  private report(message: string): void {
    if (message !== this.problem) {
      this.problem = message;
      this.options.onProblem(message);
    }
    this.settle?.();
  }

  private watchFolder(dir: string): void {
    if (this.watcher && this.watched?.dir === dir) return;
    this.unwatch();
    try {
      const ino = statSync(dir).ino;
      this.watcher = watch(dir, (_event, name) => {
        if (!name || name === path.basename(this.file ?? '')) this.schedule();
      });
      this.watcher.on('error', () => {
        this.unwatch();
        this.schedule();
      });
      this.watched = { dir, ino };
    } catch {
      // The folder is not there yet: the poll looks again.
    }
  }

  private unwatch(): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.watched = undefined;
  }

  private pollOnce(): void {
    if (this.closed || this.checking) return;
    const place = settingsFileOf(this.options.ide, this.options.settingsFile, this.options.environment ?? thisEnvironment());
    if (this.watched && inodeOf(this.watched.dir) !== this.watched.ino) this.unwatch();
    if (!this.watcher || place.file !== this.file || (place.file && statKey(place.file) !== this.statSeen)) this.schedule(false);
  }
}

// What changes when a file is rewritten in place or replaced.
function statKey(file: string): string {
  try {
    const stat = statSync(file);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

function inodeOf(dir: string): number | undefined {
  try {
    return statSync(dir).ino;
  } catch {
    return undefined;
  }
}
