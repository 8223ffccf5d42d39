// A finished simulation (the `simulation` event): the pin trace as a timing chart drawn by
// uPlot (served under /uplot/, loaded by index.html as the global `uPlot`), the per-pin
// figures, and the serial output.
const $ = (id) => document.getElementById(id);

/**
 * The whole run from the event's `levels` (per time bucket, decimated as the simulator ran):
 * per pin a lane with the high share as its line (lane + 0.8 × share) and the lowest and
 * highest level in each bucket as a band around it, so PWM fills the band and a fade ramps.
 */
export function chartData(event) {
  const levels = event.levels;
  const pins = levels.pins.map((p) => p.pin);
  const count = levels.pins[0]?.high.length ?? 0;
  const times = [];
  for (let i = 0; i < count; i++) times.push(i * levels.bucketSeconds);
  times.push(event.simulatedSeconds);
  const lane = (values, row) => {
    const points = values.map((v) => (v === null ? null : row + 0.8 * v));
    points.push(points[points.length - 1] ?? null);
    return points;
  };
  const rows = levels.pins.flatMap((p, row) => [lane(p.high, row), lane(p.max, row), lane(p.min, row)]);
  return { pins, data: [times, ...rows], bucketSeconds: levels.bucketSeconds };
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
    const shown = `; chart: the whole run, ${seconds(event.levels.bucketSeconds)} a point`;
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
    this.event = event;
    this.draw();
  }

  /** Draws the last run at the box's width (again when the view opens or resizes). */
  draw() {
    const event = this.event;
    if (!event) return;
    const { pins, data } = chartData(event);
    this.chart?.destroy();
    const box = $('simulation-chart');
    box.dataset.pins = pins.join(',');
    box.dataset.points = String(data[0].length);
    box.dataset.seconds = String(data[0][data[0].length - 1]);
    const stepped = window.uPlot.paths.stepped({ align: 1 });
    const series = [{ label: 't (s)', value: (_, v) => (v === null ? '' : v.toFixed(3)) }];
    const bands = [];
    pins.forEach((name, i) => {
      const colour = COLOURS[i % COLOURS.length];
      const at = 1 + 3 * i;
      series.push(
        { label: name, stroke: colour, width: 1.5, points: { show: false }, paths: stepped, value: (_, v) => (v === null ? 'z' : `${Math.round(((v - i) / 0.8) * 100)} % high`) },
        { label: `${name} max`, stroke: 'transparent', points: { show: false }, paths: stepped, legend: false },
        { label: `${name} min`, stroke: 'transparent', points: { show: false }, paths: stepped, legend: false },
      );
      bands.push({ series: [at + 1, at + 2], fill: `${colour}33` });
    });
    const width = Math.max(240, Math.floor(box.clientWidth || box.parentElement?.clientWidth || 600) - 4);
    this.chart = new window.uPlot(
      {
        width,
        height: 90 + 40 * Math.max(1, pins.length),
        scales: { x: { time: false, range: [0, data[0][data[0].length - 1]] }, y: { range: [-0.2, Math.max(1, pins.length)] } },
        axes: [
          { label: 'simulated time (s)', stroke: getComputedStyle(document.body).color, grid: { stroke: '#8884' } },
          { splits: () => pins.map((_, i) => i + 0.4), values: () => pins, size: 44, stroke: getComputedStyle(document.body).color, grid: { show: false } },
        ],
        series,
        bands,
        legend: { live: false },
      },
      data,
      box,
    );
    // Only the pins' own lines in the legend; the band edges stay out of it.
    const edges = new Set(series.filter((s) => s.legend === false).map((s) => s.label));
    for (const row of box.querySelectorAll('.u-legend .u-series')) {
      if (edges.has(row.querySelector('.u-label')?.textContent)) row.style.display = 'none';
    }
    this.width = width;
  }

  /** The view opened or changed width. */
  layout() {
    const box = $('simulation-chart');
    if (this.event && Math.abs((box.clientWidth || 0) - 4 - (this.width ?? 0)) > 8) this.draw();
  }
}

function seconds(s) {
  return s >= 1 ? `${s.toFixed(2)} s` : s >= 1e-3 ? `${(s * 1e3).toFixed(2)} ms` : `${(s * 1e6).toFixed(1)} µs`;
}

function describePin(pin) {
  const parts = [`${pin.risingEdges} rising edges`];
  if (pin.periodSeconds !== undefined) {
    const period = pin.periodSeconds >= 1 ? `${pin.periodSeconds.toFixed(3)} s` : `${(pin.periodSeconds * 1000).toFixed(3)} ms`;
    parts.push(`period ${period}`, `${pin.frequencyHz.toFixed(pin.frequencyHz >= 10 ? 1 : 3)} Hz`, `duty ${Math.round(pin.dutyPercent)} %`);
  }
  return `${pin.pin}: ${parts.join(', ')}`;
}
