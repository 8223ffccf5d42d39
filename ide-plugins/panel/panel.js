// The panel page: one WebSocket to `boardbridge serve`, BridgeSession events in,
// the person's answers out. On every (re)connect the server sends a snapshot of
// the whole session, so a reload or a second tab shows the same conversation.
import { AgentSetup } from './agent-setup.js';
import { BoardView } from './board.js';
import { ChangesView } from './changes.js';
import { CircuitView } from './circuit.js';
import { Conversation } from './conversation.js';
import { FileView } from './file-view.js';
import { SerialPane } from './serial.js';
import { SimulationView } from './simulation.js';
import { applyTheme, onThemeChange } from './theme.js';

const $ = (id) => document.getElementById(id);
let socket;
let retryMs = 500;

function send(message) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else showProblem({ message: 'not connected to boardbridge; reconnecting…' });
}

const changes = new ChangesView(send);
const fileView = new FileView(send, showTab);
/** What the header shows, for tool titles: the workspace, the board and the port. */
const where = { workspace: undefined, board: undefined, port: undefined };
const conversation = new Conversation($('log'), $('plan'), send, openFile, () => where);
const board = new BoardView();
const serial = new SerialPane(send);
const simulation = new SimulationView(showTab);
const circuit = new CircuitView(send, showTab);
// The chart's axis colours are drawn in: it is drawn again in the new theme.
onThemeChange(() => simulation.draw());
new ResizeObserver(() => simulation.layout()).observe($('panes'));

function setBusy(busy) {
  $('busy').hidden = !busy;
  $('stop').disabled = !busy;
  $('send').disabled = busy;
  document.body.dataset.busy = String(busy);
}

function showProblem(problem) {
  const box = $('problem');
  box.textContent = problem.hint ? `${problem.message} — ${problem.hint}` : problem.message;
  if (problem.login) box.textContent += ` — log in from a terminal: ${problem.login}, then press Restart agent`;
  box.hidden = false;
  clearTimeout(showProblem.timer);
  showProblem.timer = setTimeout(() => (box.hidden = true), 8000);
}

// Inside an IDE the page sits in a frame of the IDE's webview: it tells the IDE about
// changes (to open them in the IDE's own diff view) and passes on what the IDE sends
// (board, port, unsaved buffers). Only the frame's own parent is listened to.
const embedded = window.parent !== window;
if (embedded) {
  window.addEventListener('message', (e) => {
    if (e.source !== window.parent) return;
    if (e.data?.type === 'boardbridge-send') send(e.data.message);
    else if (e.data?.type === 'boardbridge-theme') applyTheme(e.data);
  });
}
// A diagnostic's link: inside an IDE its own editor opens the file at the line; here, the File tab.
const agentSetup = new AgentSetup($('agent-setup'), send, embedded ? (agent, action) => toHost({ type: 'run_in_terminal', agent, action }) : undefined);
function toHost(message) {
  window.parent.postMessage({ type: 'boardbridge-message', message }, '*');
}
function openFile(target) {
  if (embedded) window.parent.postMessage({ type: 'boardbridge-message', message: { type: 'open_file', ...target } }, '*');
  else fileView.open(target);
}
function tellHost(message) {
  if (!embedded) return;
  if (message.type === 'snapshot') window.parent.postMessage({ type: 'boardbridge-message', message: { type: 'reviews', reviews: message.reviews } }, '*');
  else if (['review', 'diff', 'apply_write', 'agent_unavailable', 'agent_chosen'].includes(message.type)) toHost(message);
  if (message.type === 'snapshot' && message.agentUnavailable) toHost({ type: 'agent_unavailable', ...message.agentUnavailable });
}

function onMessage(message) {
  tellHost(message);
  switch (message.type) {
    case 'snapshot':
      // Cut at the start (direction: rtl on the box); the path itself is isolated as left-to-right, so
      // its text (copied, read by a screen reader) is the path and nothing else.
      $('workspace').replaceChildren(Object.assign(document.createElement('bdi'), { textContent: message.workspace, dir: 'ltr' }));
      $('workspace').title = message.workspace;
      where.workspace = message.workspace;
      showBoard(message.context, message.port);
      conversation.reset();
      for (const event of message.events) onEvent(event);
      changes.reset(message.reviews);
      board.show(message.context, message.contextProblem);
      serial.reset(message.serial);
      setBusy(message.busy);
      if (message.agentUnavailable) showUnavailable(message.agentUnavailable);
      else if (!message.agentStarting) agentSetup.ready();
      showStarting(message.agentStarting);
      // Ready once the agent's state is known: its session, or why there is none.
      if (!message.agentStarting) document.body.dataset.ready = 'true';
      return;
    case 'agent_unavailable':
      showUnavailable(message);
      document.body.dataset.ready = 'true';
      return;
    case 'agent_starting':
      return showStarting(message.agent);
    case 'event':
      return onEvent(message.event);
    case 'busy':
      return setBusy(message.busy);
    case 'review':
      return changes.update(message.review);
    case 'diff':
      return changes.showDiff(message);
    case 'file':
      return fileView.show(message);
    case 'context':
      showBoard(message.context, message.port);
      return board.show(message.context, message.problem);
    case 'problem':
      return showProblem(message);
    case 'serial':
      return serial.append(message.text, message.missed);
    case 'serial_state':
      return serial.state(message.serial);
    case 'serial_ports':
      return serial.ports(message.ports);
    case 'project':
      return showProject(message);
    case 'circuit':
      return circuit.show(message);
    case 'parts':
      return circuit.update(message);
  }
}

// `serve --follow`: the IDE opened another project. The new project's snapshot follows
// (at once, or when the running turn ends: `pending`) and redraws everything else.
function showProject(message) {
  $('project-note').textContent = message.reason;
  $('project-note').hidden = false;
  document.body.dataset.followPending = String(Boolean(message.pending));
}

// No agent runs: the header no longer names one as starting (the setup box says why).
function showUnavailable(unavailable) {
  agentSetup.show(unavailable);
  $('agent').textContent = 'No agent';
}

// The header's second line: the board the context is for, and the port the IDE picked.
function showBoard(context, port) {
  where.board = context ? { name: context.board, id: context.id } : undefined;
  where.port = port;
  const text = [context?.board, port].filter(Boolean).join(' · ');
  $('board-port').textContent = text;
  $('board-port').title = context ? `${context.board} (${context.id})${port ? ' on ' + port : ''}` : '';
}

function showStarting(agent) {
  const choosing = !$('agent-setup').hidden;
  agentSetup.starting(agent);
  if (agent && !choosing) $('agent').textContent = `starting ${agent}…`;
}

function onEvent(event) {
  if (event.type === 'session_started') {
    agentSetup.ready();
    document.body.dataset.ready = 'true';
    // An npm package's scope (@zed-industries/…) says who published it, not which agent it is.
    const name = (event.agent.name ?? event.agent.id).replace(/^@[^/]+\//, '');
    $('agent').textContent = `${name}${event.agent.version ? ' ' + event.agent.version : ''}`;
    $('agent').title = `session ${event.sessionId} in ${event.cwd}`;
    document.body.dataset.sessionId = event.sessionId;
    showModes(event.modes);
  } else if (event.type === 'mode') {
    $('mode').value = event.currentModeId;
  } else if (event.type === 'simulation') {
    simulation.show(event);
  }
  conversation.apply(event);
}

function showModes(modes) {
  const select = $('mode');
  select.replaceChildren(...(modes?.availableModes ?? []).map((m) => new Option(m.name, m.id)));
  select.value = modes?.currentModeId ?? '';
  $('mode-box').hidden = !modes?.availableModes?.length;
}

function connect() {
  const url = new URL('socket', location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  socket = new WebSocket(url);
  socket.addEventListener('open', () => {
    retryMs = 500;
    $('connection').textContent = 'connected';
    $('connection').className = 'badge online';
  });
  socket.addEventListener('message', (e) => onMessage(JSON.parse(e.data)));
  socket.addEventListener('close', () => {
    $('connection').textContent = 'disconnected, retrying…';
    $('connection').className = 'badge offline';
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 10_000);
  });
}

$('composer').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = $('prompt').value.trim();
  if (!text) return;
  send({ type: 'prompt', text });
  $('prompt').value = '';
});
$('prompt').addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey) {
    e.preventDefault();
    $('composer').requestSubmit();
  }
});
$('stop').addEventListener('click', () => send({ type: 'cancel' }));
$('mode').addEventListener('change', () => send({ type: 'mode', modeId: $('mode').value }));
/** Opens the view `name` below the conversation (or, `toggle`, closes it when it is the open one). */
function showTab(name, { toggle = false, focus = false } = {}) {
  const open = toggle && $('side').dataset.open === name ? '' : name;
  $('side').dataset.open = open;
  $('views-close').hidden = !open;
  for (const tab of document.querySelectorAll('#tabs button[data-tab]')) {
    const active = tab.dataset.tab === open;
    tab.classList.toggle('active', active);
    tab.setAttribute('aria-expanded', String(active));
    tab.setAttribute('aria-selected', String(active));
  }
  for (const pane of document.querySelectorAll('.tab')) pane.hidden = pane.id !== `tab-${open}`;
  if (open === 'changes') changes.layout();
  if (open === 'serial') serial.shown();
  if (open === 'file') fileView.layout();
  if (open === 'simulation') simulation.layout();
  if (focus && open) $(`tab-${open}`).querySelector('button, input, select, textarea, [tabindex]')?.focus();
}
function closeViews() {
  showTab('');
  $('prompt').focus();
}
$('tabs').addEventListener('click', (e) => {
  const tab = e.target.closest('button[data-tab]');
  if (tab) showTab(tab.dataset.tab, { toggle: true });
});
// Keyboard: arrows move between the tabs, Escape closes the view (or stops the turn from the
// prompt), Alt+1… opens the views in order.
$('tabs').addEventListener('keydown', (e) => {
  if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
  const tabs = [...document.querySelectorAll('#tabs button[data-tab]:not([hidden])')];
  const at = tabs.indexOf(document.activeElement);
  if (at < 0) return;
  e.preventDefault();
  tabs[(at + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length].focus();
});
$('views-close').addEventListener('click', closeViews);
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape') {
    if (e.target === $('prompt') && !$('stop').disabled) return send({ type: 'cancel' });
    if ($('side').dataset.open && $('side').contains(document.activeElement) || ($('side').dataset.open && e.target === document.body)) return closeViews();
  }
  if (e.altKey && /^[1-9]$/.test(e.key)) {
    const tabs = [...document.querySelectorAll('#tabs button[data-tab]:not([hidden])')];
    const tab = tabs[Number(e.key) - 1];
    if (tab) {
      e.preventDefault();
      showTab(tab.dataset.tab, { toggle: true, focus: true });
    }
  }
});
connect();
