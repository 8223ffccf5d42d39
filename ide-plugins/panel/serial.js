// The serial monitor pane: a port held on the bridge's serial hub. It shows
// "paused" while an upload has the port, and picks up again afterwards.
const $ = (id) => document.getElementById(id);
const KEEP_CHARS = 64 * 1024;

export class SerialPane {
  constructor(send) {
    this.send = send;
    $('serial-open').addEventListener('submit', (e) => {
      e.preventDefault();
      const path = $('serial-port').value.trim();
      if (path) send({ type: 'serial_open', path, baudRate: Number($('serial-baud').value) });
    });
    $('serial-disconnect').addEventListener('click', () => send({ type: 'serial_close' }));
    $('serial-send').addEventListener('submit', (e) => {
      e.preventDefault();
      const text = $('serial-input').value;
      send({ type: 'serial_send', text: `${text}\n` });
      $('serial-input').value = '';
    });
  }

  /** The tab was opened: refresh the list of ports to pick from. */
  shown() {
    this.send({ type: 'serial_ports' });
  }

  reset(snapshot) {
    $('serial-out').textContent = snapshot?.recent ?? '';
    this.state(snapshot ?? { state: 'closed' });
  }

  ports(ports) {
    $('serial-ports').replaceChildren(...ports.map((p) => new Option(p.board ? `${p.path} (${p.board})` : p.path, p.path)));
  }

  state(view) {
    const open = view.state !== 'closed' && view.state !== 'released';
    $('serial-state').textContent = view.state === 'paused' && view.pausedBy ? `paused (${view.pausedBy})` : view.state;
    $('serial-state').className = `status ${view.state}`;
    $('serial-state').dataset.state = view.state;
    $('serial-problem').textContent = view.problem ?? '';
    $('serial-connect').disabled = open;
    $('serial-disconnect').disabled = !open;
    if (view.path && !$('serial-port').value) $('serial-port').value = view.path;
    if (view.baudRate) $('serial-baud').value = String(view.baudRate);
    $('serial-badge').hidden = !open;
    $('serial-badge').textContent = view.state;
  }

  append(text, missed) {
    const out = $('serial-out');
    const stick = out.scrollTop + out.clientHeight >= out.scrollHeight - 20;
    const lost = missed > 0 ? `\n[… ${missed} bytes lost: the panel fell behind …]\n` : '';
    out.textContent = (out.textContent + lost + text).slice(-KEEP_CHARS);
    if (stick) out.scrollTop = out.scrollHeight;
  }
}
