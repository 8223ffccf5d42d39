// A finished simulation (the `simulation` event): the pin trace as a timing chart drawn by
// uPlot (served under /uplot/, loaded by index.html as the global `uPlot`), the per-pin
// figures, and the serial output.
const $ = (id) => document.getElementById(id);

/** One lane per pin: level 1 draws at lane + 0.8, level 0 at the lane, floating leaves a gap. */
export function chartData(event) {
  const pins = event.pins.map((pin) => pin.pin);
  const lane = new Map(pins.map((name, i) => [name, i]));
  const level = new Map();
  const times = [0];
  const rows = pins.map(() => [null]);
  const changes = event.trace.changes.filter((change) => lane.has(change.pin));
  for (let i = 0; i < changes.length; i++) {
    level.set(changes[i].pin, changes[i].level);
    if (i + 1 < changes.length && changes[i + 1].t === changes[i].t) continue;
    times.push(changes[i].t);
    pins.forEach((name, row) => rows[row].push(plotted(level.get(name), row)));
  }
  times.push(event.simulatedSeconds);
  pins.forEach((name, row) => rows[row].push(plotted(level.get(name), row)));
  return { pins, data: [times, ...rows] };
}

function plotted(level, row) {
  if (level === 1) return row + 0.8;
  if (level === 0) return row;
  return null;
}

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf'];

export class SimulationView {
  constructor(showTab) {
    this.showTab = showTab;
    this.chart = undefined;
  }

  show(event) {
    $('tab-simulation-button').hidden = false;
    this.showTab('simulation');
    const shown = event.trace.dropped > 0 ? `; chart: the first ${event.trace.changes.length} pin changes` : '';
    $('simulation-head').textContent = `${event.board} (${event.fqbn}): ${event.simulatedSeconds.toFixed(3)} s simulated in ${event.wallSeconds.toFixed(2)} s; ${event.stop.detail}${shown}`;
    $('simulation-notes').replaceChildren(...(event.notes ?? []).map((note) => {
      const li = document.createElement('li');
      li.textContent = `Note: ${note}.`;
      return li;
    }));
    $('simulation-pins').replaceChildren(...event.pins.map((pin) => {
      const li = document.createElement('li');
      li.textContent = describePin(pin);
      return li;
    }));
    $('simulation-serial').textContent = event.serial.text + (event.serial.truncated ? `\n[${event.serial.bytes} bytes in all]` : '');
    const { pins, data } = chartData(event);
    this.chart?.destroy();
    const box = $('simulation-chart');
    box.dataset.pins = pins.join(',');
    box.dataset.points = String(data[0].length);
    this.chart = new window.uPlot(
      {
        width: Math.max(320, box.clientWidth || 600),
        height: 110 + 48 * Math.max(1, pins.length),
        scales: { x: { time: false }, y: { range: [-0.3, Math.max(1, pins.length)] } },
        axes: [
          { label: 'simulated time (s)' },
          { splits: () => pins.map((_, i) => i + 0.4), values: () => pins, size: 50 },
        ],
        series: [
          { label: 't (s)' },
          ...pins.map((name, i) => ({ label: name, stroke: COLOURS[i % COLOURS.length], width: 1.5, points: { show: false }, paths: window.uPlot.paths.stepped({ align: 1 }), value: (_, v) => (v === null ? 'z' : String(Math.round(v - i))) })),
        ],
      },
      data,
      box,
    );
  }
}

function describePin(pin) {
  const parts = [`${pin.risingEdges} rising edges`];
  if (pin.periodSeconds !== undefined) {
    const period = pin.periodSeconds >= 1 ? `${pin.periodSeconds.toFixed(3)} s` : `${(pin.periodSeconds * 1000).toFixed(3)} ms`;
    parts.push(`period ${period}`, `${pin.frequencyHz.toFixed(pin.frequencyHz >= 10 ? 1 : 3)} Hz`, `duty ${Math.round(pin.dutyPercent)} %`);
  }
  return `${pin.pin}: ${parts.join(', ')}`;
}
