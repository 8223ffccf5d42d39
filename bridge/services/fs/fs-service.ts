// Answers the agent's fs/read_text_file and fs/write_text_file inside the workspace:
// unsaved editor buffers win over disk, writes are atomic and journalled.
import { promises as fs } from 'node:fs';
import { RequestError } from '@agentclientprotocol/sdk';
import type { ReadTextFileRequest, ReadTextFileResponse, WriteTextFileRequest } from '@agentclientprotocol/sdk';
import { writeFileAtomic } from './atomic-write.js';
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
    const file = this.options.guard.check(params.path, 'read');
    const buffered = this.options.buffers?.().get(file) ?? this.options.buffers?.().get(params.path);
    const text = buffered ?? (await readUtf8(file, params.path).catch((error: unknown) => {
      if (this.options.missingFileAsEmpty && error instanceof RequestError && error.code === -32002) return '';
      throw error;
    }));
    return { content: sliceLines(text, params.line ?? undefined, params.limit ?? undefined) };
  }

  async write(params: WriteTextFileRequest): Promise<Record<string, never>> {
    const file = this.options.guard.check(params.path, 'write');
    if (typeof params.content !== 'string') {
      throw RequestError.invalidParams({ path: params.path }, 'content must be a string');
    }
    let before: string | null = null;
    try {
      const stat = await fs.stat(file);
      if (stat.isDirectory()) throw RequestError.invalidParams({ path: params.path }, `${params.path} is a folder, not a file`);
      before = await readUtf8(file, params.path);
    } catch (error) {
      if (error instanceof RequestError) throw error;
      before = null;
    }
    // What the person had in the editor is what the agent changed (it read that, not the
    // disk): a review or undo brings their unsaved text back, not an older saved one.
    const buffered = before === null ? undefined : this.options.buffers?.().get(file);
    if (buffered !== undefined) before = buffered;
    const entry = this.options.journal.record(file, before, params.content);
    // An existing file goes through the IDE's editor when one applies writes; whatever
    // it did, the file on disk must hold exactly the agent's text afterwards.
    const throughEditor = before !== null && (await this.editorWrite(file, params.content));
    if (!throughEditor || (await fs.readFile(file, 'utf8').catch(() => undefined)) !== params.content) await writeFileAtomic(file, params.content);
    this.options.journal.written(entry);
    return {};
  }
}

async function readUtf8(file: string, shown: string): Promise<string> {
  let bytes: Buffer;
  try {
    const stat = await fs.stat(file);
    if (stat.isDirectory()) throw RequestError.invalidParams({ path: shown }, `${shown} is a folder; list it with a terminal command`);
    if (stat.size > MAX_READ_BYTES) {
      throw RequestError.invalidParams({ path: shown, size: stat.size }, `${shown} is ${stat.size} bytes; read it in parts with line and limit`);
    }
    bytes = await fs.readFile(file);
  } catch (error) {
    if (error instanceof RequestError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw missingFile(shown);
    throw RequestError.internalError({ path: shown, code }, `cannot read ${shown}: ${(error as Error).message}`);
  }
  if (bytes.includes(0)) {
    throw RequestError.invalidParams({ path: shown }, `${shown} is a binary file (it contains NUL bytes), not text`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw RequestError.invalidParams({ path: shown }, `${shown} is not valid UTF-8 text`);
  }
}

// The message names ENOENT too: agents that look for it in the text treat the file as new.
function missingFile(shown: string): RequestError {
  return new RequestError(-32002, `Resource not found: ${shown} does not exist (ENOENT)`, { path: shown, uri: shown });
}

/** `line` is 1-based; `limit` counts lines from there. */
export function sliceLines(text: string, line?: number, limit?: number): string {
  if (line === undefined && limit === undefined) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join('\n');
}
