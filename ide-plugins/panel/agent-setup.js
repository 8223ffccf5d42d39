// What the panel shows while no agent runs: why (in the agent's or the bridge's
// words), a button to try the same agent again, and every agent boardbridge knows
// with one install command, one login command and a Start button. Inside an IDE the
// commands also run in the IDE's terminal (`runInTerminal`); here they are shown to copy.
const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

export class AgentSetup {
  /**
   * @param {HTMLElement} box the #agent-setup element
   * @param {(message: object) => void} send to the bridge
   * @param {((agent: string, action: 'install' | 'login') => void) | undefined} runInTerminal the IDE's terminal, when there is one
   */
  constructor(box, send, runInTerminal) {
    this.box = box;
    this.send = send;
    this.runInTerminal = runInTerminal;
    box.querySelector('#agent-retry').addEventListener('click', () => this.start(undefined));
  }

  /** No agent runs: `unavailable` is { reason, hint, choices }. */
  show(unavailable) {
    this.box.hidden = false;
    document.body.dataset.agent = 'unavailable';
    this.box.querySelector('#agent-reason').textContent = unavailable.reason;
    this.box.querySelector('#agent-hint').textContent = this.runInTerminal ? ideHint(unavailable.hint) : (unavailable.hint ?? '');
    // Inside an IDE the extension's own setting takes any agent's command line, and applies at once.
    const setting = this.box.querySelector('#agent-setting');
    setting.hidden = !this.runInTerminal;
    setting.textContent = 'Or any ACP agent by its command line: put it in the setting boardbridge.agentCommand (File › Preferences › Settings); the bridge restarts with it at once.';
    this.box.querySelector('#agent-choices').replaceChildren(...unavailable.choices.map((choice) => this.choice(choice)));
    this.starting(undefined);
  }

  /** `agent` is starting (undefined: nothing is). */
  starting(agent) {
    const note = this.box.querySelector('#agent-starting');
    note.hidden = !agent;
    note.textContent = agent ? `starting ${agent}…` : '';
    for (const button of this.box.querySelectorAll('button.start, #agent-retry')) button.disabled = Boolean(agent);
    if (agent) document.body.dataset.agent = 'starting';
  }

  /** A session started: the setup goes away. */
  ready() {
    this.box.hidden = true;
    document.body.dataset.agent = 'ready';
  }

  start(agent) {
    this.send(agent ? { type: 'start_agent', agent } : { type: 'start_agent' });
  }

  choice(c) {
    const item = el('li');
    item.dataset.agent = c.id;
    item.dataset.installed = String(c.installed);
    const head = el('div', 'head');
    head.append(el('strong', '', c.title), el('span', `status ${c.installed ? 'completed' : 'pending'}`, c.installed ? 'installed' : 'not installed'));
    if (c.installed) head.append(el('span', `status ${c.ready ? 'completed' : 'pending'}`, c.ready ? 'logged in' : 'not logged in'));
    // Only an installed agent gets the primary button; another is started once installed.
    const start = el('button', c.installed ? 'start allow' : 'start secondary', `Start ${c.title}`);
    if (!c.installed) start.title = `install ${c.title} first (below)`;
    start.addEventListener('click', () => this.start(c.id));
    head.append(start);
    item.append(head, el('div', 'step quiet', c.offer));
    if (c.problem) item.append(el('div', 'step problem', c.problem));
    if (c.install && !c.installed) item.append(this.step('Install:', c.install, c.id, 'install'));
    if (c.login) item.append(this.step('Log in once:', c.login, c.id, 'login', [c.loginNote, c.loginNeeds && `needs ${c.loginNeeds} on PATH, which is not there`].filter(Boolean).join('; ')));
    if (c.keyEnv.length) {
      const set = c.keySet.length ? ` (${c.keySet.join(', ')} is set)` : '';
      const lead = c.login ? 'or give it a key' : 'Give it a key';
      item.append(el('div', 'step quiet', `${lead}: ${c.keyEnv.join(' or ')} in the environment boardbridge starts in${set}${c.keyNote ? ` — ${c.keyNote}` : ''}`));
    }
    return item;
  }

  step(label, command, agent, action, note) {
    const row = el('div', 'step');
    row.dataset.action = action;
    row.append(el('span', '', label), el('code', '', command));
    if (this.runInTerminal) {
      const run = el('button', 'small', 'Run in terminal');
      run.addEventListener('click', () => this.runInTerminal(agent, action));
      row.append(run);
    } else if (navigator.clipboard) {
      const copy = el('button', 'small', 'Copy');
      copy.addEventListener('click', () => void navigator.clipboard.writeText(command).catch(() => undefined));
      row.append(copy);
    }
    if (note) row.append(el('span', 'quiet', note));
    return row;
  }
}

/**
 * The bridge's hint without the steps that only work in a terminal with boardbridge on PATH
 * (`run: boardbridge doctor`): the IDE runs its own bundled bridge.
 */
export function ideHint(hint) {
  if (!hint) return '';
  return hint
    .split(/;\s*|\s+or\s+(?=run:)/)
    .filter((part) => !/^(or )?run: boardbridge\b/.test(part.trim()))
    .join('; ')
    .trim();
}
