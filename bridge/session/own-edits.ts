// What both sessions (`run`/`chat` and `boardbridge acp`) share about the files an agent
// writes itself: its own edits go into the session's journal, and a bridge write racing
// such an edit is journalled from the text before the call. Also the read-only platform
// folders offered to the agent as `additionalDirectories`. One place, so the faces cannot drift.
import path from 'node:path';
import type { ToolCallUpdate } from '@agentclientprotocol/sdk';
import { readVerifiedTextSync } from '../services/fs/anchored-dir.js';
import { MAX_READ_BYTES } from '../services/fs/fs-service.js';
import type { WriteJournal } from '../services/fs/journal.js';
import type { WorkspaceGuard } from '../services/fs/workspace-guard.js';
import { reducePermissionToolCall, reduceRefusal, reduceUpdate, type StateChange } from './reducer.js';
import { getToolCall, initialState, type SessionState, type ToolCallState } from './state.js';

export class OwnEdits {
  private journal?: WriteJournal;
  /** The text each file got from the latest journalled write (fs/write_text_file or an agent's own edit). */
  private readonly lastWritten = new Map<string, string>();
  /** `toolCallId|file` → the file and its text when an edit call naming it was first seen (null: absent). */
  private readonly before = new Map<string, { file: string; before: string | null }>();

  constructor(
    private readonly workspace: string,
    private readonly guard: WorkspaceGuard,
  ) {}

  /** The session's journal, once its id is known: own edits are recorded there. */
  attach(journal: WriteJournal): void {
    if (this.journal === journal) return;
    this.journal = journal;
    journal.onEntry((entry) => this.lastWritten.set(entry.path, entry.after));
  }

  /**
   * Some agents (codex) patch files themselves instead of asking fs/write_text_file, and
   * their diffs are hunks, not whole files. Each file an edit call names is read when the
   * call is first seen (before any permission lets it run); when the call completes and the
   * file changed without a write through the bridge, the change goes into the journal:
   * faces can review it and `boardbridge undo` can take it back (refusing if it changes again).
   */
  observe(call: ToolCallState): void {
    if (call.kind !== 'edit') return;
    const done = call.status === 'completed' || call.status === 'failed';
    for (const item of call.content) {
      if (item.type !== 'diff') continue;
      let file: string;
      try {
        file = this.guard.check(path.resolve(this.workspace, item.path), 'write');
      } catch {
        continue; // outside the workspace: not ours to record
      }
      const key = `${call.toolCallId}|${file}`;
      // Read at once: the turn's stop may follow the completing update directly.
      const now = readTextOrNull(file);
      if (!done) {
        if (!this.before.has(key)) this.before.set(key, { file, before: now });
        continue;
      }
      const before = this.before.get(key)?.before;
      this.before.delete(key);
      if (call.status !== 'completed' || before === undefined || now === null || now === before || this.lastWritten.get(file) === now) continue;
      this.journal?.record(file, before, now);
    }
  }

  /**
   * A write the agent asked the client for (fs/write_text_file) that the editor, not the bridge,
   * carries out (`boardbridge acp` in front of an editor with its own fs): the file's new text is
   * the client's write, not an own edit of the agent's, and is not journalled when the call ends.
   */
  writtenByClient(file: string, text: string): void {
    try {
      this.lastWritten.set(this.guard.check(path.resolve(this.workspace, file), 'write'), text);
    } catch {
      // outside the workspace: never journalled anyway
    }
  }

  /**
   * OpenCode both writes a permitted edit itself and sends it through fs/write_text_file,
   * without waiting for either, so its own write can land first. A bridge write to a file an
   * open edit call names, found changed since the call was first seen and not by the bridge,
   * is journalled from the text before the call: undo brings that back (removes a file the
   * call created), instead of the agent's own copy of the same change.
   */
  priorText(file: string, onDisk: string | null): { before: string | null } | undefined {
    for (const seen of this.before.values()) {
      if (seen.file !== file) continue;
      if (seen.before === onDisk || (onDisk !== null && this.lastWritten.get(file) === onDisk)) return undefined;
      return { before: seen.before };
    }
    return undefined;
  }
}

/**
 * The tool calls of a session that keeps no transcript of its own (the proxy relays the
 * agent's updates to the editor): merged by the one reducer, each change handed to `OwnEdits`.
 */
export class ToolCallWatch {
  private state: SessionState = initialState('');

  constructor(private readonly edits: OwnEdits) {}

  update(update: unknown): void {
    const kind = (update as { sessionUpdate?: unknown } | undefined)?.sessionUpdate;
    if (kind !== 'tool_call' && kind !== 'tool_call_update') return;
    this.take(reduceUpdate(this.state, update as Parameters<typeof reduceUpdate>[1]));
  }

  permission(toolCall: ToolCallUpdate): void {
    this.take(reducePermissionToolCall(this.state, toolCall));
  }

  /** The person refused the call's permission (the editor's answer): the call as now known, marked refused. */
  refuse(toolCallId: string): ToolCallState | undefined {
    this.take(reduceRefusal(this.state, toolCallId));
    return this.get(toolCallId);
  }

  get(toolCallId: string): ToolCallState | undefined {
    return getToolCall(this.state, toolCallId);
  }

  private take({ state, changes }: { state: SessionState; changes: StateChange[] }): void {
    this.state = state;
    for (const change of changes) if (change.type === 'tool_call') this.edits.observe(change.toolCall);
  }
}

/**
 * The installed platform folders (cores, variants, libraries) to name as `additionalDirectories`:
 * absolute, none inside the workspace (the agent has it already), none inside another one named.
 */
export function additionalPlatformFolders(roots: readonly string[], workspace: string): string[] {
  const inside = (dir: string, root: string) => dir === root || dir.startsWith(root + path.sep);
  const absolute = [...new Set(roots.map((r) => path.resolve(r)))].filter((r) => !inside(r, workspace));
  return absolute.filter((r) => !absolute.some((other) => other !== r && inside(r, other))).sort();
}

// A FIFO or a huge file named in an agent's edit must not block the session: read only a
// regular file, without blocking, from a descriptor verified to be the checked path.
function readTextOrNull(file: string): string | null {
  return readVerifiedTextSync(file, MAX_READ_BYTES);
}
