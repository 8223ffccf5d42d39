export { startModelServer, type ModelServer, type RecordedRequest } from './server.js';
export type { ModelScript, ScriptTurn, Reply, ToolCall, ToolCallPerAgent, Conversation } from './script.js';
