// The Circuit tab: the workspace's diagram.json drawn at its positions with Wokwi's own part
// elements (@wokwi/elements, served under /wokwi/ and loaded only when there is a diagram),
// wires as lines between the elements' pins, and the parts live while a run the person started
// goes on: what each shows comes from the bridge's simulator (`parts` messages); a button
// pressed, a knob turned or a switch slid here is a control set on that run. A run the agent
// steps with its sim_* tools is shown the same way, as the agent's.
const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
/** Room around the drawing, in the diagram's pixels. */
const MARGIN = 16;

/** How a part's look (bridge: boards/circuit/part-models.ts PartView) shows on its element. */
const SHOW = {
  'wokwi-led': (el, v) => {
    el.value = Boolean(v.on);
    el.brightness = v.brightness ?? (v.on ? 1 : 0);
  },
  'wokwi-rgb-led': (el, v) => {
    [el.ledRed, el.ledGreen, el.ledBlue] = v.rgb ?? [0, 0, 0];
  },
  'wokwi-7segment': (el, v) => {
    if (v.segments) el.values = v.segments;
  },
  'wokwi-led-bar-graph': (el, v) => {
    if (v.bars) el.values = v.bars.map((duty) => (duty >= 0.5 ? 1 : 0));
  },
  'wokwi-servo': (el, v) => {
    if (v.angle !== undefined) el.angle = v.angle;
  },
  'wokwi-buzzer': (el, v) => {
    el.hasSignal = (v.hz ?? 0) > 0;
  },
  'wokwi-pushbutton': (el, v) => {
    if (!el.dataset.held) el.pressed = Boolean(v.pressed);
  },
  'wokwi-slide-switch': (el, v) => {
    if (v.value !== undefined) el.value = v.value;
  },
};

/** The person's hands on a part: the control and value its element's event means. */
function wireControls(el, type, id, send) {
  const control = (name, value) => send({ type: 'circuit_control', part: id, control: name, value });
  if (type === 'wokwi-pushbutton') {
    el.addEventListener('button-press', () => {
      el.dataset.held = 'true';
      control('pressed', 1);
    });
    el.addEventListener('button-release', () => {
      delete el.dataset.held;
      control('pressed', 0);
    });
  } else if (type === 'wokwi-potentiometer' || type === 'wokwi-slide-potentiometer') {
    el.addEventListener('input', () => {
      const span = (el.max ?? 1023) - (el.min ?? 0) || 1;
      control('position', Math.min(1, Math.max(0, (el.value - (el.min ?? 0)) / span)));
    });
  } else if (type === 'wokwi-slide-switch') {
    el.addEventListener('input', () => control('value', el.value ? 1 : 0));
  }
}

export class CircuitView {
  constructor(send, showTab) {
    this.send = send;
    this.showTab = showTab;
    this.elements = new Map();
    this.layoutKey = '';
    this.loaded = undefined;
    this.pending = undefined;
    /** The last look of each part, for a drawing made after it came. */
    this.lastLooks = new Map();
  }

  /** The tab and its pane are made here, so the page's own HTML stays as it is. */
  ensureTab() {
    if ($('tab-circuit')) return;
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.tab = 'circuit';
    button.id = 'tab-circuit-button';
    button.textContent = 'Circuit';
    button.setAttribute('role', 'tab');
    button.setAttribute('aria-controls', 'tab-circuit');
    button.setAttribute('aria-expanded', 'false');
    // The strip's own click handler opens the tab (panel.js showTab, after this one as the click
    // bubbles); the drawing waits for the pane to be shown.
    button.addEventListener('click', () => setTimeout(() => void this.drawPending(), 0));
    $('tabs').insertBefore(button, $('tab-file-button'));
    const pane = document.createElement('div');
    pane.id = 'tab-circuit';
    pane.className = 'tab';
    pane.hidden = true;
    pane.innerHTML = `
      <div class="row circuit-bar">
        <button type="button" id="circuit-run">Run</button>
        <button type="button" id="circuit-stop" disabled>Stop</button>
        <span id="circuit-state" class="status">not running</span>
        <span id="circuit-board" class="quiet"></span>
      </div>
      <p id="circuit-problem" hidden></p>
      <details id="circuit-output" class="output" hidden><summary>compiler output</summary><pre></pre></details>
      <ul id="circuit-notes"></ul>
      <div id="circuit-box"><div id="circuit-stage"><svg id="circuit-wires" xmlns="${SVG}"></svg></div></div>
      <pre id="circuit-serial" hidden></pre>`;
    pane.setAttribute('role', 'tabpanel');
    $('panes').append(pane);
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = 'circuit.css';
    document.head.append(link);
    // The pane changes size with the window and as the views strip opens or closes.
    new ResizeObserver(() => this.fit()).observe(pane);
    $('circuit-run').addEventListener('click', () => this.send({ type: 'circuit_start' }));
    $('circuit-stop').addEventListener('click', () => this.send({ type: 'circuit_stop' }));
  }

  /** Wokwi's elements, loaded once (a classic script from this origin, as the page's CSP allows). */
  elementsLoaded() {
    this.loaded ??= new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = 'wokwi/wokwi-elements.bundle.min.js';
      script.addEventListener('load', resolve);
      script.addEventListener('error', () => reject(new Error('the part elements (wokwi/wokwi-elements.bundle.min.js) could not be loaded')));
      document.head.append(script);
    });
    return this.loaded;
  }

  /** The `circuit` message: the diagram, and whether a run goes on. */
  async show(message) {
    if (!message.layout && !$('tab-circuit')) return;
    this.ensureTab();
    const pane = $('tab-circuit');
    pane.dataset.running = String(message.running);
    pane.dataset.starting = String(Boolean(message.starting));
    // The agent's run (its sim_* tools) is shown here; the person's Run starts one of their own instead.
    const agents = Boolean(message.agent);
    pane.dataset.agent = String(agents);
    $('circuit-run').disabled = Boolean(message.starting);
    $('circuit-run').textContent = message.running && !agents ? 'Restart' : 'Run';
    $('circuit-stop').disabled = !message.running || agents;
    const whose = agents ? "the agent's simulation " : '';
    $('circuit-state').textContent = message.starting ? 'compiling…' : message.running ? `${whose}running` : message.stopped ? `${whose}stopped: ${message.stopped}` : 'not running';
    $('circuit-state').className = `status ${message.running ? 'open' : message.starting ? 'pending' : ''}`;
    $('circuit-board').textContent = message.board ?? '';
    $('circuit-problem').hidden = !message.problem;
    $('circuit-problem').textContent = message.problem ?? '';
    $('circuit-output').hidden = !message.output;
    $('circuit-output').querySelector('pre').textContent = message.output ?? '';
    $('circuit-notes').replaceChildren(...(message.notes ?? []).map((note) => Object.assign(document.createElement('li'), { textContent: `Note: ${note}.` })));
    if (message.starting) {
      this.lastLooks.clear();
      $('circuit-serial').textContent = '';
      $('circuit-serial').hidden = true;
    }
    if (!message.layout) return;
    const key = JSON.stringify(message.layout);
    if (key === this.layoutKey) return;
    this.layoutKey = key;
    this.pending = message.layout;
    // A run started here shows its circuit; parts are measured only while the tab is visible.
    if (message.running) this.showTab('circuit');
    await this.drawPending();
  }

  async drawPending() {
    const layout = this.pending;
    if (!layout || $('tab-circuit').hidden) return;
    this.pending = undefined;
    try {
      await this.elementsLoaded();
    } catch (error) {
      $('circuit-problem').hidden = false;
      $('circuit-problem').textContent = error.message;
      return;
    }
    await this.draw(layout);
    for (const look of this.lastLooks.values()) this.showLook(look);
  }

  async draw(layout) {
    const stage = $('circuit-stage');
    const wires = $('circuit-wires');
    for (const el of this.elements.values()) el.remove();
    this.elements.clear();
    for (const part of layout.parts) {
      const known = customElements.get(part.type);
      const el = known ? document.createElement(part.type) : chip(part);
      for (const [name, value] of Object.entries(part.attrs)) setAttr(el, name, value);
      el.classList.add('circuit-part');
      el.dataset.part = part.id;
      el.title = `${part.id} (${part.type})`;
      el.style.left = `${part.left}px`;
      el.style.top = `${part.top}px`;
      if (part.rotate) el.style.transform = `rotate(${part.rotate}deg)`;
      wireControls(el, part.type, part.id, this.send);
      stage.append(el);
      this.elements.set(part.id, el);
    }
    await Promise.all([...this.elements.values()].map((el) => el.updateComplete));
    // The drawing's extent, so parts at negative positions are shown too.
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const el of this.elements.values()) {
      minX = Math.min(minX, el.offsetLeft);
      minY = Math.min(minY, el.offsetTop);
      maxX = Math.max(maxX, el.offsetLeft + el.offsetWidth);
      maxY = Math.max(maxY, el.offsetTop + el.offsetHeight);
    }
    if (!Number.isFinite(minX)) minX = minY = maxX = maxY = 0;
    const dx = MARGIN - minX;
    const dy = MARGIN - minY;
    stage.style.width = `${maxX - minX + 2 * MARGIN}px`;
    stage.style.height = `${maxY - minY + 2 * MARGIN}px`;
    stage.style.setProperty('--dx', `${dx}px`);
    stage.style.setProperty('--dy', `${dy}px`);
    for (const el of this.elements.values()) el.style.translate = `${dx}px ${dy}px`;
    wires.setAttribute('width', String(maxX - minX + 2 * MARGIN));
    wires.setAttribute('height', String(maxY - minY + 2 * MARGIN));
    wires.replaceChildren();
    for (const wire of layout.wires) {
      const a = this.pinAt(wire.from, dx, dy);
      const b = this.pinAt(wire.to, dx, dy);
      if (!a || !b) continue;
      // Out of the first pin, then along and across, as a person lays a wire.
      const path = document.createElementNS(SVG, 'path');
      path.setAttribute('d', `M ${a.x} ${a.y} L ${b.x} ${a.y} L ${b.x} ${b.y}`);
      path.setAttribute('stroke', wireColour(wire.color));
      path.dataset.from = wire.from;
      path.dataset.to = wire.to;
      wires.append(path);
    }
    this.fit();
  }

  /** Where a "part:pin" is on the stage: the element's pinInfo, turned with the part. */
  pinAt(terminal, dx, dy) {
    const colon = terminal.indexOf(':');
    const el = this.elements.get(terminal.slice(0, colon));
    const pin = el?.pinInfo?.find((p) => p.name === terminal.slice(colon + 1));
    if (!pin) return undefined;
    const w = el.offsetWidth;
    const h = el.offsetHeight;
    const turn = (Number(el.style.transform.match(/rotate\(([-\d.]+)deg\)/)?.[1] ?? 0) * Math.PI) / 180;
    const cx = w / 2;
    const cy = h / 2;
    const x = cx + (pin.x - cx) * Math.cos(turn) - (pin.y - cy) * Math.sin(turn);
    const y = cy + (pin.x - cx) * Math.sin(turn) + (pin.y - cy) * Math.cos(turn);
    return { x: el.offsetLeft + dx + x, y: el.offsetTop + dy + y };
  }

  showLook(look) {
    const el = this.elements.get(look.id);
    if (!el) return;
    el.dataset.state = look.state;
    SHOW[look.type]?.(el, look.view);
  }

  /**
   * The drawing scaled to the room it has: the pane's width, and its height below the buttons
   * (less the serial text under it), so the whole board is in view without scrolling.
   */
  fit() {
    const box = $('circuit-box');
    const pane = $('tab-circuit');
    if (!box || !pane || !box.clientWidth || pane.hidden) return;
    const stage = $('circuit-stage');
    const width = parseFloat(stage.style.width) || 1;
    const height = parseFloat(stage.style.height) || 1;
    const serial = $('circuit-serial');
    const below = (serial.hidden ? 0 : serial.offsetHeight + 12) + parseFloat(getComputedStyle(pane).paddingBottom) + 2;
    const room = pane.getBoundingClientRect().bottom - box.getBoundingClientRect().top - below;
    const scale = Math.min(1.6, box.clientWidth / width, Math.max(room, 40) / height);
    stage.style.transform = `scale(${scale})`;
    box.style.height = `${height * scale}px`;
  }

  /** The `parts` message: what changed in the last step. */
  update(message) {
    const pane = $('tab-circuit');
    if (!pane) return;
    pane.dataset.at = String(message.atSeconds);
    for (const look of message.parts) {
      this.lastLooks.set(look.id, look);
      this.showLook(look);
    }
    if (message.serial) {
      const out = $('circuit-serial');
      const before = out.hidden ? 0 : out.offsetHeight;
      out.hidden = false;
      out.textContent = (out.textContent + message.serial).slice(-4096);
      out.scrollTop = out.scrollHeight;
      // The serial text takes room from the drawing until it reaches its own height limit.
      if (out.offsetHeight !== before) this.fit();
    }
  }
}

/** A part Wokwi's elements have no drawing for (the 74HC595): a chip with its pins along two sides. */
function chip(part) {
  const el = document.createElement('div');
  el.className = 'circuit-chip';
  el.textContent = part.type.replace(/^wokwi-/, '');
  const pins = ['Q1', 'Q2', 'Q3', 'Q4', 'Q5', 'Q6', 'Q7', 'GND', 'Q7S', 'MR', 'SHCP', 'STCP', 'OE', 'DS', 'Q0', 'VCC'];
  // A DIP-16 as the datasheet numbers it: 1–8 along the bottom left to right, 9–16 along the top right to left.
  el.pinInfo = pins.map((name, i) => (i < 8 ? { name, x: 8 + i * 9.6, y: 40 } : { name, x: 8 + (15 - i) * 9.6, y: 0 }));
  el.updateComplete = Promise.resolve();
  return el;
}

function setAttr(el, name, value) {
  // Wokwi writes booleans as "1"/"0" and "true"/"false"; a boolean property is on by its attribute's presence.
  if (typeof el[name] === 'boolean' && (value === '0' || value === 'false' || value === '')) return;
  if (name === 'value' && (el.localName === 'wokwi-potentiometer' || el.localName === 'wokwi-slide-potentiometer')) {
    el.value = Number(value);
    return;
  }
  el.setAttribute(name, value);
}

function wireColour(colour) {
  if (!colour) return '#3c8c3c';
  // Wokwi's colour names are CSS ones; "black" on the dark stage is drawn a little lighter.
  return colour === 'black' ? '#444' : colour;
}
