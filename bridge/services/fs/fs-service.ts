// Answers the agent's fs/read_text_file and fs/write_text_file inside the workspace:
// unsaved editor buffers win over disk, writes are atomic and journalled, and every
// file is read or replaced through a folder handle verified inside the workspace
// (anchored-dir.ts), so a path swapped for a symbolic link mid-request leads nowhere.
import { RequestError } from '@agentclientprotocol/sdk';
import type { ReadTextFileRequest, ReadTextFileResponse, WriteTextFileRequest } from '@agentclientprotocol/sdk';
import { openError } from './anchored-dir.js';
import { replaceFile, tempName } from './atomic-write.js';
import { openTarget, readConfined, readExisting } from './confined-files.js';
import type { WriteJournal } from './journal.js';
import type { WorkspaceGuard } from './workspace-guard.js';

/** Largest file handed to an agent in one read; larger ones must be read with line/limit. */
export const MAX_READ_BYTES = 8 * 1024 * 1024;

export interface FsServiceOptions {
  guard: WorkspaceGuard;
  journal: WriteJournal;
  /** Unsaved editor contents by absolute path, as the face knows them. */
  buffers?: () => ReadonlyMap<string, string>;
  /** Answer a read of a missing file with empty content instead of -32002 (see agents/quirks.ts). */
  missingFileAsEmpty?: boolean;
  /**
   * An IDE that applies the agent's writes through its editor (so its undo works):
   * resolves true once the file is saved with exactly this text, false to have the
   * bridge write the file itself.
   */
  editorWrite?: EditorWrite;
  /**
   * The text a write should be journalled from instead of what is on disk (`onDisk`, null
   * when absent), when the session knows the agent already changed the file itself in the
   * same call; undefined to journal from disk.
   */
  priorText?: (file: string, onDisk: string | null) => { before: string | null } | undefined;
}

export type EditorWrite = (file: string, text: string) => Promise<boolean>;

export class FsService {
  constructor(private readonly options: FsServiceOptions) {}

  private async editorWrite(file: string, text: string): Promise<boolean> {
    try {
      return (await this.options.editorWrite?.(file, text)) ?? false;
    } catch {
      return false;
    }
  }

  async read(params: ReadTextFileRequest): Promise<ReadTextFileResponse> {
    const { guard } = this.options;
    const file = guard.check(params.path, 'read');
    const line = params.line ?? undefined;
    const limit = params.limit ?? undefined;
    const buffered = this.options.buffers?.().get(file) ?? this.options.buffers?.().get(params.path);
    if (buffered !== undefined) return { content: sliceLines(buffered, line, limit) };
    try {
      return { content: await readConfined(guard, params.path, { line, limit, maxBytes: MAX_READ_BYTES }) };
    } catch (error) {
      if (this.options.missingFileAsEmpty && error instanceof RequestError && error.code === -32002) return { content: '' };
      throw error;
    }
  }

  async write(params: WriteTextFileRequest): Promise<Record<string, never>> {
    if (typeof params.content !== 'string') {
      throw RequestError.invalidParams({ path: params.path }, 'content must be a string');
    }
    const target = await openTarget(this.options.guard, params.path, 'write', true);
    const { file } = target;
    try {
      const existing = await readExisting(target, params.path, MAX_READ_BYTES);
      // What the person had in the editor is what the agent changed (it read that, not the
      // disk): a review or undo brings their unsaved text back, not an older saved one.
      const buffered = existing === null ? undefined : this.options.buffers?.().get(file);
      const prior = buffered === undefined ? this.options.priorText?.(file, existing?.text ?? null) : undefined;
      const before = prior ? prior.before : (buffered ?? existing?.text ?? null);
      // Nothing to change and nothing to record: the file already holds exactly this text.
      if (before === params.content && existing?.text === params.content) return {};
      const tmp = tempName();
      const entry = this.options.journal.intend(file, before, params.content, tmp);
      try {
        // An existing file goes through the IDE's editor when one applies writes; whatever
        // it did, the file on disk must hold exactly the agent's text afterwards.
        const throughEditor = existing !== null && (await this.editorWrite(file, params.content));
        const saved = throughEditor ? (await readExisting(target, params.path, MAX_READ_BYTES).catch(() => null))?.text : undefined;
        if (saved !== params.content) await replaceFile(target.dir, target.name, tmp, params.content, params.path, existing?.mode);
      } catch (error) {
        this.options.journal.failed(entry);
        throw error;
      }
      this.options.journal.done(entry);
      return {};
    } catch (error) {
      throw openError(error, params.path);
    } finally {
      await target.dir.close();
    }
  }
}

/** `line` is 1-based; `limit` counts lines from there. */
export function sliceLines(text: string, line?: number, limit?: number): string {
  if (line === undefined && limit === undefined) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join('\n');
}
