// The conversation as BridgeSession events draw it: the agent's replies as markdown that
// grows chunk by chunk, tool calls as cards (a kind icon, a short title, the status; input
// and output unfold) whose status changes in place, permission requests with the change's
// diff and the agent's own options beside it, the plan as a checklist. Diagnostics'
// `file:line` in a tool's output become links.
import { formCard, formDecided } from './elicitation-form.js';
import { linkFileLines, toolOutputText } from './file-links.js';
import { icon } from './icons.js';
import { colorizeBlocks, renderMarkdown } from './markdown.js';
import { inlineDiff } from './inline-diff.js';
import { boardbridgeTool, relativePaths, toolTitle } from './tool-title.js';

const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

const DECISION = { rejected: 'refused', cancelled: 'withdrawn' };
/** How long a streaming reply waits before it is drawn again (many chunks, one redraw). */
const REDRAW_MS = 40;
/** Input values longer than this are summarised in a tool card's detail. */
const INPUT_CHARS = 300;

/** The first diff in a tool call's content (ACP ToolCallContent `diff`). */
function diffOf(call) {
  return (call?.content ?? []).find((item) => item.type === 'diff' && typeof item.newText === 'string');
}

/** A tool's JSON answer indented, so it reads line by line; other text as it is. */
function readable(text) {
  if (!/^\s*[{[]/.test(text)) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 1);
  } catch {
    return text;
  }
}

function iconName(call) {
  const tool = boardbridgeTool(call.title);
  if (tool === 'simulate' || tool?.startsWith('sim_')) return 'simulate';
  if (tool) return 'board';
  return call.kind ?? 'other';
}

export class Conversation {
  /**
   * `openFile({ path, line, col })` follows a diagnostic's link; `where()` is what the header
   * shows ({ workspace, board, port }), for tool titles.
   */
  constructor(log, plan, send, openFile, where = () => ({})) {
    this.log = log;
    this.plan = plan;
    this.send = send;
    this.openFile = openFile;
    this.where = where;
    this.editors = [];
    this.reset();
  }

  reset() {
    for (const editor of this.editors) editor.dispose();
    this.editors = [];
    this.log.replaceChildren();
    this.plan.hidden = true;
    this.current = undefined;
    this.toolCards = new Map();
    this.toolCalls = new Map();
    this.permissions = new Map();
    this.forms = new Map();
    /** terminalId → { text, truncated, owner: toolCallId or the `$ command` line } */
    this.terminals = new Map();
  }

  apply(event) {
    const stick = this.log.scrollTop + this.log.clientHeight >= this.log.scrollHeight - 40;
    this.draw(event);
    if (stick) this.log.scrollTop = this.log.scrollHeight;
  }

  draw(event) {
    switch (event.type) {
      case 'session_started':
        // The header names the agent; the session's id stays out of the conversation.
        return this.endMessage();
      case 'context_sent':
        if (event.note) this.line(event.note);
        return this.line(`board context sent: ${event.board} (${event.kind}, ${event.chars} characters${event.full ? '' : ', changes only'})`);
      case 'context_missing':
        return this.line(`no board context: ${event.reason}`);
      case 'prompt_sent':
        this.endMessage();
        return this.log.append(el('div', 'msg user', event.text));
      case 'message_chunk':
        return this.chunk(event);
      case 'tool_call':
        return this.toolCall(event.toolCall);
      case 'plan':
        return this.showPlan(event.entries);
      case 'permission_request':
        return this.permission(event);
      case 'permission_decision':
        return this.decided(event);
      case 'elicitation_request': {
        const card = formCard(event, this.send);
        this.forms.set(event.id, card);
        this.endMessage();
        return this.log.append(card);
      }
      case 'elicitation_decision': {
        const card = this.forms.get(event.id);
        return card ? formDecided(card, event) : undefined;
      }
      case 'file_written':
        return this.line(`${event.created ? 'created' : 'wrote'} ${relativePaths(event.path, this.where().workspace)} — review it under Changes`);
      case 'terminal_started':
        return this.terminalStarted(event);
      case 'terminal_output':
        return this.terminalOutput(event);
      case 'terminal_exited':
        return this.line(`exited ${event.exitCode ?? event.signal}: ${event.command}`);
      case 'stop':
        this.endMessage();
        return this.line(`done (${event.stopReason})`, 'stop');
      case 'agent_exited':
        return this.agentExited(event);
      case 'error':
        return this.line(`${event.message}${event.hint ? ' — ' + event.hint : ''}`, 'error');
      case 'notice':
        return this.line(`${event.title}${event.description ? ': ' + event.description : ''}`);
      case 'mode':
        return this.line(`mode: ${event.currentModeId}`);
    }
  }

  line(text, extra = '') {
    this.endMessage();
    this.log.append(el('div', `line ${extra}`.trim(), text));
  }

  chunk(event) {
    if (event.role === 'user') return; // the prompt is already shown from prompt_sent
    if (!event.text) return;
    if (!this.current || this.current.dataset.role !== event.role) {
      this.endMessage();
      this.current = el('div', `msg ${event.role}`);
      this.current.dataset.role = event.role;
      this.current.dataset.chunks = '0';
      this.current.source = '';
      this.log.append(this.current);
    }
    const message = this.current;
    message.source += event.text;
    message.dataset.chunks = String(Number(message.dataset.chunks) + 1);
    if (event.role !== 'agent') {
      message.textContent = message.source;
      return;
    }
    clearTimeout(message.redraw);
    message.redraw = setTimeout(() => this.finish(message), REDRAW_MS);
  }

  /** The message being streamed is complete (something else came after it). */
  endMessage() {
    const message = this.current;
    this.current = undefined;
    if (message?.dataset.role === 'agent') this.finish(message);
  }

  finish(message) {
    clearTimeout(message.redraw);
    const stick = this.log.scrollTop + this.log.clientHeight >= this.log.scrollHeight - 40;
    renderMarkdown(message, message.source);
    if (stick) this.log.scrollTop = this.log.scrollHeight;
    if (message.querySelector('pre > code')) {
      clearTimeout(message.colour);
      message.colour = setTimeout(() => void colorizeBlocks(message).catch(() => undefined), message === this.current ? 400 : 0);
    }
  }

  toolCall(call) {
    let card = this.toolCards.get(call.toolCallId);
    if (!card) {
      card = el('details', 'card tool');
      card.dataset.toolCallId = call.toolCallId;
      const summary = el('summary');
      summary.append(icon('other'), el('span', 'title'), el('span', 'status'));
      const detail = el('div', 'detail');
      card.append(summary, detail);
      card.addEventListener('toggle', () => {
        if (card.open) this.showDiffIn(card, this.toolCalls.get(card.dataset.toolCallId));
      });
      this.toolCards.set(call.toolCallId, card);
      this.endMessage();
      this.log.append(card);
    }
    const summary = card.querySelector('summary');
    summary.querySelector('.icon').replaceWith(icon(iconName(call)));
    const title = toolTitle(call, this.where());
    summary.querySelector('.title').textContent = title;
    summary.title = `${call.kind ?? 'tool'}: ${call.title ?? ''}`;
    const status = summary.querySelector('.status');
    // The bridge's own record of a refused permission, not the agent's `failed`: it never ran.
    const outcome = call.refused && call.status === 'failed' ? 'refused' : call.status;
    status.textContent = outcome.replace('_', ' ');
    status.className = `status ${outcome}`;
    card.dataset.status = call.status;
    card.dataset.kind = call.kind ?? 'other';
    this.toolCalls.set(call.toolCallId, call);
    this.showInput(card, call);
    for (const item of call.content ?? []) {
      const terminal = item.type === 'terminal' ? this.terminal(item.terminalId) : undefined;
      if (terminal && terminal.owner !== card) {
        terminal.owner?.querySelector?.('.output')?.remove();
        terminal.owner = card;
      }
    }
    this.showOutput(card, this.outputOf(call));
    if (card.open) this.showDiffIn(card, call);
    // A permission card waiting on this call shows its diff once the call carries one.
    for (const permission of this.permissions.values()) {
      if (permission.dataset.toolCallId === call.toolCallId && !permission.dataset.decided) this.showPermissionDiff(permission, call);
    }
  }

  // The call's input, field by field (long values summarised), inside the card's detail.
  showInput(card, call) {
    const detail = card.querySelector('.detail');
    let list = detail.querySelector('dl.input');
    const input = typeof call.rawInput === 'object' && call.rawInput !== null ? Object.entries(call.rawInput) : [];
    const locations = (call.locations ?? []).map((l) => `${relativePaths(l.path, this.where().workspace)}${l.line ? ':' + l.line : ''}`);
    if (input.length === 0 && locations.length === 0) return list?.remove();
    if (!list) {
      list = el('dl', 'input');
      detail.prepend(list);
    }
    const rows = [];
    for (const [name, value] of input) {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      rows.push(el('dt', '', name), el('dd', '', text.length > INPUT_CHARS ? `(${text.split('\n').length} lines, ${text.length} characters)` : relativePaths(text, this.where().workspace)));
    }
    if (locations.length) rows.push(el('dt', '', 'where'), el('dd', '', locations.join(', ')));
    list.replaceChildren(...rows);
  }

  showDiffIn(card, call) {
    const diff = diffOf(call);
    if (!diff || card.querySelector('.detail .inline-diff')) return;
    const box = el('div', 'inline-diff');
    card.querySelector('.detail').append(box);
    void inlineDiff(box, diff).then((editor) => this.editors.push(editor)).catch(() => box.remove());
  }

  outputOf(call) {
    return toolOutputText(call, (id) => {
      const terminal = this.terminals.get(id);
      return terminal && terminal.text + (terminal.truncated ? '\n… (the rest went to the agent only)' : '');
    });
  }

  terminal(id) {
    let terminal = this.terminals.get(id);
    if (!terminal) this.terminals.set(id, (terminal = { text: '', truncated: false, owner: undefined }));
    return terminal;
  }

  // A terminal's output shows in the card of the tool call that ran it, or under its
  // `$ command` line when no tool call claims it.
  terminalStarted(event) {
    this.endMessage();
    const line = el('div', 'line terminal', `$ ${event.command}`);
    line.dataset.terminalId = event.terminalId;
    this.log.append(line);
    this.terminal(event.terminalId).owner ??= line;
  }

  terminalOutput(event) {
    const terminal = this.terminal(event.terminalId);
    terminal.text += event.text;
    terminal.truncated ||= Boolean(event.truncated);
    const owner = terminal.owner;
    if (!owner) return;
    if (owner.classList.contains('tool')) return this.showOutput(owner, this.outputOf(this.toolCalls.get(owner.dataset.toolCallId)));
    this.showOutput(owner, terminal.text);
  }

  // Output with diagnostics opens its card itself; the rest waits for a click.
  showOutput(card, text) {
    const into = card.querySelector('.detail') ?? card;
    let output = into.querySelector('.output');
    if (!text) return output?.remove();
    if (output?.shownText === text) return;
    if (!output) {
      output = el('details', 'output');
      output.open = card.classList.contains('tool');
      output.append(el('summary', '', 'output'), el('pre'));
      into.append(output);
    }
    output.shownText = text;
    const body = linkFileLines(readable(text), this.openFile);
    if (body.querySelector('.file-link')) {
      output.open = true;
      if (card.tagName === 'DETAILS') card.open = true;
    }
    output.querySelector('pre').replaceChildren(body);
  }

  permission(event) {
    const card = el('div', 'card permission');
    card.dataset.permissionId = String(event.id);
    card.dataset.toolCallId = event.toolCall.toolCallId;
    const call = { ...this.toolCalls.get(event.toolCall.toolCallId), ...event.toolCall };
    const head = el('div', 'head');
    head.append(icon(iconName(call)), el('span', 'title', `${event.category === 'device' ? 'Allow this change to a device? ' : 'Allow? '}${toolTitle(call, this.where())}`));
    const body = el('div', 'body');
    const options = el('div', 'options');
    options.setAttribute('role', 'group');
    options.setAttribute('aria-label', 'answer');
    for (const option of event.options) {
      const button = el('button', option.kind.startsWith('allow') ? 'allow' : 'reject', option.name);
      button.type = 'button';
      button.dataset.optionId = option.optionId;
      button.dataset.kind = option.kind;
      button.addEventListener('click', () => {
        for (const b of options.querySelectorAll('button')) b.disabled = true;
        this.send({ type: 'permission', id: event.id, optionId: option.optionId });
      });
      options.append(button);
    }
    body.append(options);
    card.append(head, body);
    this.permissions.set(event.id, card);
    this.endMessage();
    this.log.append(card);
    this.showPermissionDiff(card, this.toolCalls.get(event.toolCall.toolCallId));
    // The first allowing answer takes the keyboard focus when the person is not typing.
    if (document.activeElement !== document.getElementById('prompt') || !document.getElementById('prompt').value) options.querySelector('button.allow')?.focus({ preventScroll: true });
  }

  showPermissionDiff(card, call) {
    const diff = diffOf(call);
    if (!diff || card.querySelector('.inline-diff')) return;
    const box = el('div', 'inline-diff');
    box.setAttribute('aria-label', `the change to ${relativePaths(diff.path, this.where().workspace)}`);
    card.querySelector('.body').prepend(box);
    void inlineDiff(box, diff).then((editor) => this.editors.push(editor)).catch(() => box.remove());
  }

  decided(event) {
    const card = this.permissions.get(event.id);
    if (!card) return;
    // The bridge's reading of the answer: Reject clicked is a chosen option, and refused.
    const word = event.answer === 'allowed' || event.answer === 'refused' ? event.answer : (DECISION[event.outcome] ?? event.outcome);
    card.querySelector('.options').replaceChildren(el('span', `status ${word}`, `${word}${event.optionId ? ' · ' + event.optionId : ''} (by ${event.by}${event.reason ? ': ' + event.reason : ''})`));
    card.dataset.decided = word;
    card.querySelector('.title').textContent = card.querySelector('.title').textContent.replace(/^(Allow this change to a device\? |Allow\? )/, '');
    // Answered: the diff leaves the card (the tool call's card and Changes still show it).
    const box = card.querySelector('.inline-diff');
    if (box) {
      box.remove();
      const editor = this.editors.find((e) => e.box === box);
      editor?.dispose();
      this.editors = this.editors.filter((e) => e !== editor);
    }
  }

  agentExited(event) {
    this.line(`the agent stopped (exit ${event.code ?? event.signal})${event.stderrTail ? ': ' + event.stderrTail : ''}`, 'error');
    const restart = el('button', 'primary', 'Restart agent');
    restart.type = 'button';
    restart.addEventListener('click', () => this.send({ type: 'restart' }));
    this.log.append(restart);
  }

  showPlan(entries) {
    this.plan.hidden = entries.length === 0;
    const list = this.plan.querySelector('ul');
    list.replaceChildren(
      ...entries.map((entry) => {
        const item = el('li', entry.status, `${entry.status === 'completed' ? '☑' : '☐'} ${entry.content}`);
        item.dataset.priority = entry.priority;
        return item;
      }),
    );
  }
}
