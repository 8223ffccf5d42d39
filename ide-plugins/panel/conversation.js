// The conversation as BridgeSession events draw it: messages that grow chunk by
// chunk, tool calls as cards whose status changes in place, permission requests
// as buttons with the agent's own options, the plan as a checklist. A tool's
// output shows under its card, diagnostics' `file:line` as links.
import { formCard, formDecided } from './elicitation-form.js';
import { linkFileLines, toolOutputText } from './file-links.js';

const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

const DECISION = { selected: 'allowed', rejected: 'refused', cancelled: 'withdrawn' };

export class Conversation {
  /** `openFile({ path, line, col })` follows a diagnostic's link. */
  constructor(log, plan, send, openFile) {
    this.log = log;
    this.plan = plan;
    this.send = send;
    this.openFile = openFile;
    this.reset();
  }

  reset() {
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
        return this.line(`session ${event.sessionId} with ${event.agent.name ?? event.agent.id} in ${event.cwd}`);
      case 'context_sent':
        if (event.note) this.line(event.note);
        return this.line(`board context sent: ${event.board} (${event.kind}, ${event.chars} characters${event.full ? '' : ', changes only'})`);
      case 'context_missing':
        return this.line(`no board context: ${event.reason}`);
      case 'prompt_sent':
        this.current = undefined;
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
        this.current = undefined;
        return this.log.append(card);
      }
      case 'elicitation_decision': {
        const card = this.forms.get(event.id);
        return card ? formDecided(card, event) : undefined;
      }
      case 'file_written':
        return this.line(`${event.created ? 'created' : 'wrote'} ${event.path} — review it under Changes`);
      case 'terminal_started':
        return this.terminalStarted(event);
      case 'terminal_output':
        return this.terminalOutput(event);
      case 'terminal_exited':
        return this.line(`exited ${event.exitCode ?? event.signal}: ${event.command}`);
      case 'stop':
        this.current = undefined;
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
    this.current = undefined;
    this.log.append(el('div', `line ${extra}`, text));
  }

  chunk(event) {
    if (event.role === 'user') return; // the prompt is already shown from prompt_sent
    if (!event.text) return;
    if (!this.current || this.current.dataset.role !== event.role) {
      this.current = el('div', `msg ${event.role}`);
      this.current.dataset.role = event.role;
      this.current.dataset.chunks = '0';
      this.log.append(this.current);
    }
    this.current.textContent += event.text;
    this.current.dataset.chunks = String(Number(this.current.dataset.chunks) + 1);
  }

  toolCall(call) {
    let card = this.toolCards.get(call.toolCallId);
    if (!card) {
      card = el('div', 'card tool');
      card.dataset.toolCallId = call.toolCallId;
      card.append(el('span', 'title'), el('span', 'status'));
      this.toolCards.set(call.toolCallId, card);
      this.log.append(card);
      this.current = undefined;
    }
    card.querySelector('.title').textContent = `${call.kind} · ${call.title}`;
    const status = card.querySelector('.status');
    status.textContent = call.status;
    status.className = `status ${call.status}`;
    card.dataset.status = call.status;
    this.toolCalls.set(call.toolCallId, call);
    for (const item of call.content ?? []) {
      const terminal = item.type === 'terminal' ? this.terminal(item.terminalId) : undefined;
      if (terminal && terminal.owner !== card) {
        terminal.owner?.querySelector?.('.output')?.remove();
        terminal.owner = card;
      }
    }
    this.showOutput(card, this.outputOf(call));
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
    this.current = undefined;
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

  // Long outputs (a whole file read) stay folded; output with diagnostics opens itself.
  showOutput(card, text) {
    let output = card.querySelector('.output');
    if (!text) return output?.remove();
    if (output?.shownText === text) return;
    if (!output) {
      output = el('details', 'output');
      output.append(el('summary', '', 'output'), el('pre'));
      card.append(output);
    }
    output.shownText = text;
    const body = linkFileLines(text, this.openFile);
    if (body.querySelector('.file-link')) output.open = true;
    output.querySelector('pre').replaceChildren(body);
  }

  permission(event) {
    const card = el('div', 'card permission');
    card.dataset.permissionId = String(event.id);
    card.append(el('div', 'title', `Permission needed${event.category === 'device' ? ' (changes a device)' : ''}: ${event.toolCall.title ?? event.toolCall.toolCallId}`));
    const options = el('div', 'options');
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
    card.append(options);
    this.permissions.set(event.id, card);
    this.current = undefined;
    this.log.append(card);
  }

  decided(event) {
    const card = this.permissions.get(event.id);
    if (!card) return;
    const word = DECISION[event.outcome] ?? event.outcome;
    card.querySelector('.options').replaceChildren(el('span', `status ${word}`, `${word}${event.optionId ? ' · ' + event.optionId : ''} (by ${event.by}${event.reason ? ': ' + event.reason : ''})`));
    card.dataset.decided = word;
  }

  agentExited(event) {
    this.line(`the agent stopped (exit ${event.code ?? event.signal})${event.stderrTail ? ': ' + event.stderrTail : ''}`, 'error');
    const restart = el('button', '', 'Restart agent');
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
