// The declarative model script and how a request is matched to one of its replies.
//
// A script is a list of turns, one per user prompt in the ACP session:
//
//   const script: ModelScript = { turns: [
//     { replies: [{ say: 'Hello from the fake model.' }] },              // prompt 1
//     { replies: [                                                        // prompt 2
//         { tool: { claude: { name: 'Write', input: { file_path: '/w/a.txt', content: 'x' } },
//                   gemini: { name: 'write_file', input: { file_path: '/w/a.txt', content: 'x' } } } },
//         { say: 'Wrote it.' } ] },
//     { whenUserSays: 'cancel me', replies: [{ hang: true }] },
//   ] };
//
// Which reply answers a request is decided by the conversation the request carries, never by a
// global counter: the turn is the number of real user prompts in it (or the turn whose
// `whenUserSays` occurs in the latest prompt), the step within the turn is the number of
// tool-result messages after that prompt (codex: function_call_output items; Claude Code's own "your response was cut off" follow-up
// after max_tokens counts as a step too). So retries and background requests (Claude Code's
// titles and quota checks, Gemini's router and next-speaker checks) never consume the script.
// Tool names are the agent's own: Claude Read/Write/Edit/Bash (or mcp__acp__*), Gemini read_file,
// write_file, replace, run_shell_command, codex exec_command {cmd} and apply_patch {patch: text}.
// A request past the end of the script gets a harmless short text reply.
//
// After session/cancel, counting is unreliable for Gemini (it drops the cancelled prompt from its
// history): give turns after a cancellation a `whenUserSays`.

/** A tool call the model makes; `name` is the agent's own tool name (see resolveToolName). */
export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
}

/** The same tool call spelled per agent, so one script can drive both agents. */
export interface ToolCallPerAgent {
  claude?: ToolCall;
  gemini?: ToolCall;
  codex?: ToolCall;
  opencode?: ToolCall;
  qwen?: ToolCall;
}

export type Reply =
  /** Plain text, streamed in several chunks, then end_turn / STOP. */
  | { say: string }
  /** Optional text, then one or more tool calls in the same model message. */
  | { tool: ToolCall | ToolCallPerAgent | Array<ToolCall | ToolCallPerAgent>; say?: string }
  /** Text cut off with stop reason max_tokens / MAX_TOKENS. */
  | { maxTokens: string }
  /** Anthropic stop_reason "refusal"; Gemini finishReason "SAFETY". */
  | { refuse: string }
  /** Keep the response open, sending nothing, until the client aborts the request. */
  | { hang: true };

export interface ScriptTurn {
  /** Choose this turn when the latest user prompt contains this text (else by prompt count). */
  whenUserSays?: string;
  /** replies[k] answers the model request made after k tool results within this turn. */
  replies: Reply[];
}

export interface ModelScript {
  turns: ScriptTurn[];
}

export type Agent = 'claude' | 'gemini' | 'codex' | 'opencode' | 'qwen';

/** What every wire format is reduced to before a reply is chosen. */
export interface Conversation {
  /** Real user prompts (tool results and injected context excluded). */
  userPrompts: string[];
  /** Tool-result messages (and Claude Code's automatic "continue" messages) since the latest prompt. */
  stepsSinceLastPrompt: number;
  /** Text of the latest tool result, for assertions. */
  lastToolResult?: string;
  /** Tool names the agent offered the model in this request. */
  offeredTools: string[];
}

export interface ScriptPosition {
  turn: number;
  step: number;
}

export type ReplyChoice =
  | { kind: 'script'; position: ScriptPosition; reply: Reply }
  | { kind: 'past-script'; reply: Reply };

const pastScriptReply: Reply = { say: 'OK.' };

export function chooseReply(script: ModelScript, conversation: Conversation): ReplyChoice {
  const latest = conversation.userPrompts.at(-1) ?? '';
  // The latest occurrence wins: a prompt can still carry the text of a cancelled one before it.
  let turn = -1;
  let at = -1;
  script.turns.forEach((t, index) => {
    const position = t.whenUserSays === undefined ? -1 : latest.lastIndexOf(t.whenUserSays);
    if (position > at) [turn, at] = [index, position];
  });
  if (turn < 0) turn = conversation.userPrompts.length - 1;
  const step = conversation.stepsSinceLastPrompt;
  const reply = script.turns[turn]?.replies[step];
  if (turn < 0 || reply === undefined) return { kind: 'past-script', reply: pastScriptReply };
  return { kind: 'script', position: { turn, step }, reply };
}

export function toolCallsOf(reply: Reply, agent: Agent, offeredTools: string[]): ToolCall[] {
  if (!('tool' in reply)) return [];
  const specs = Array.isArray(reply.tool) ? reply.tool : [reply.tool];
  return specs.flatMap((spec) => {
    const call = 'name' in spec ? spec : spec[agent];
    if (call === undefined) return [];
    return [{ name: resolveToolName(call.name, offeredTools), input: call.input }];
  });
}

// claude-code-acp replaces Read/Write/Edit/Bash with its own MCP tools (mcp__acp__Write ...) when
// the client has fs/terminal capabilities; a script may name either spelling.
function resolveToolName(name: string, offeredTools: string[]): string {
  if (offeredTools.includes(name)) return name;
  const viaAcp = `mcp__acp__${name}`;
  return offeredTools.includes(viaAcp) ? viaAcp : name;
}

/** Splits text into a few chunks so streaming is exercised. */
export function chunksOf(text: string, parts = 3): string[] {
  if (text.length < parts * 2) return [text];
  const size = Math.ceil(text.length / parts);
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
  return chunks;
}
