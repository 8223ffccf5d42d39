// What boardbridge answers for its own slash commands (/board, /context), as the text shown: the
// proxy's editor sessions and the terminal chat both answer them here.
import type { LoadedContext } from '../context/context-service.js';
import type { BoardSelection } from '../session/board-selection.js';
import type { SlashCommand } from './slash-commands.js';

/** What a session holds for the commands: its board selection, its folder, and its context. */
export interface CommandSession {
  readonly selection: BoardSelection;
  readonly cwd: string;
  /** The context last sent to the agent in full. */
  readonly lastSent?: LoadedContext;
  tryLoad(): Promise<{ loaded?: LoadedContext; note?: string; error?: string }>;
}

export async function answerCommand(session: CommandSession, command: SlashCommand, logFile?: string): Promise<string> {
  if (command.name === 'board') {
    if (!command.argument) return `The board selected is ${session.selection.board ?? 'none (boardbridge reads it from the project)'}; change it with /board <fqbn|device|camera>.`;
    const before = session.selection.current;
    session.selection.update({ board: command.argument });
    const { loaded, note, error } = await session.tryLoad();
    if (error) {
      session.selection.set(before);
      return `Board not changed (still ${before.board ?? 'the one the project names'}): ${error}`;
    }
    if (!loaded) return `Board set to ${command.argument}, but prompts go without a hardware context: ${note ?? `boardbridge recognises no project in ${session.cwd}`}`;
    return `Board set to ${loaded.context.board.name} (${loaded.context.board.id}); the agent is told with your next prompt.`;
  }
  const log = logFile ? `\n\n(boardbridge's log: ${logFile})` : '';
  if (session.lastSent) return `The agent was told this hardware context (boardbridge sends it again when it changes):\n\n${session.lastSent.markdown}${log}`;
  const { loaded: upcoming, note, error } = await session.tryLoad();
  if (error) return `The hardware context cannot be built: ${error}${log}`;
  if (!upcoming) return `The agent is given no hardware context: ${note ?? `boardbridge recognises no project in ${session.cwd}`}${log}`;
  return `Nothing sent yet; with your next prompt the agent is told:\n\n${upcoming.markdown}${log}`;
}
