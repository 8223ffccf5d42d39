// An RGBA canvas with the few shapes the circuit still needs: convex or concave polygons
// (scanline, even-odd, sampled at pixel centres), circles, thick lines and a 3×5 bitmap font for
// part ids. Coordinates are pixels, fractional allowed; anything outside the canvas is clipped.
export type Rgb = readonly [number, number, number];

// 3 columns × 5 rows a glyph, top row first ('#' lit). Lower case is drawn as upper case.
const FONT: Record<string, string> = {
  a: '.#.#.#####.##.#', b: '##.#.###.#.###.', c: '.###..#..#...##', d: '##.#.##.##.###.', e: '####..##.#..###',
  f: '####..##.#..#..', g: '.###..#.##.#.##', h: '#.##.#####.##.#', i: '###.#..#..#.###', j: '..#..#..##.#.#.',
  k: '#.##.###.#.##.#', l: '#..#..#..#..###', m: '#.########.##.#', n: '##.#.##.##.##.#', o: '.#.#.##.##.#.#.',
  p: '##.#.###.#..#..', q: '.#.#.##.##.#.##', r: '##.#.###.#.##.#', s: '.###...#...###.', t: '###.#..#..#..#.',
  u: '#.##.##.##.####', v: '#.##.##.##.#.#.', w: '#.##.########.#', x: '#.##.#.#.#.##.#', y: '#.##.#.#..#..#.',
  z: '###..#.#.#..###', '0': '.#.#.##.##.#.#.', '1': '.#.##..#..#.###', '2': '##...#.#.#..###', '3': '##...#.#...###.',
  '4': '#.##.####..#..#', '5': '####..##...###.', '6': '.###..##.#.#.#.', '7': '###..#.#..#..#.', '8': '.#.#.#.#.#.#.#.',
  '9': '.#.#.#.##..###.', '-': '......###......', _: '............###', '.': '.............#.', '?': '##...#.#.....#.',
};

export class Raster {
  readonly data: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb,
  ) {
    this.data = new Uint8Array(width * height * 4);
    this.data.set([background[0], background[1], background[2], 255]);
    // Doubling copies: the background in log2(pixels) steps.
    for (let filled = 4; filled < this.data.length; filled *= 2) this.data.copyWithin(filled, 0, Math.min(filled, this.data.length - filled));
  }

  /** The colour at a pixel (for tests and for blending). */
  pixel(x: number, y: number): Rgb {
    const i = (Math.floor(y) * this.width + Math.floor(x)) * 4;
    return [this.data[i]!, this.data[i + 1]!, this.data[i + 2]!];
  }

  private set(x: number, y: number, colour: Rgb): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 4;
    this.data[i] = colour[0];
    this.data[i + 1] = colour[1];
    this.data[i + 2] = colour[2];
  }

  fillPolygon(points: ReadonlyArray<readonly [number, number]>, colour: Rgb): void {
    if (points.length < 3) return;
    const ys = points.map((p) => p[1]);
    const top = Math.max(0, Math.floor(Math.min(...ys)));
    const bottom = Math.min(this.height - 1, Math.ceil(Math.max(...ys)));
    for (let y = top; y <= bottom; y++) {
      const cy = y + 0.5;
      const crossings: number[] = [];
      for (let i = 0; i < points.length; i++) {
        const [x0, y0] = points[i]!;
        const [x1, y1] = points[(i + 1) % points.length]!;
        if (y0 <= cy === y1 <= cy) continue;
        crossings.push(x0 + ((cy - y0) / (y1 - y0)) * (x1 - x0));
      }
      crossings.sort((a, b) => a - b);
      for (let k = 0; k + 1 < crossings.length; k += 2) {
        const from = Math.max(0, Math.ceil(crossings[k]! - 0.5));
        const to = Math.min(this.width - 1, Math.floor(crossings[k + 1]! - 0.5));
        this.span(y, from, to, colour);
      }
    }
  }

  fillCircle(cx: number, cy: number, r: number, colour: Rgb): void {
    for (let y = Math.max(0, Math.floor(cy - r)); y <= Math.min(this.height - 1, Math.ceil(cy + r)); y++) {
      const half = r * r - (y + 0.5 - cy) ** 2;
      if (half < 0) continue;
      const w = Math.sqrt(half);
      this.span(y, Math.max(0, Math.ceil(cx - w - 0.5)), Math.min(this.width - 1, Math.floor(cx + w - 0.5)), colour);
    }
  }

  // Pixels from..to (inclusive, already clipped to the width) of row y.
  private span(y: number, from: number, to: number, colour: Rgb): void {
    const [r, g, b] = colour;
    for (let i = (y * this.width + from) * 4, end = (y * this.width + to) * 4; i <= end; i += 4) {
      this.data[i] = r;
      this.data[i + 1] = g;
      this.data[i + 2] = b;
    }
  }

  line(x0: number, y0: number, x1: number, y1: number, width: number, colour: Rgb): void {
    const length = Math.hypot(x1 - x0, y1 - y0);
    if (length === 0) return this.fillCircle(x0, y0, width / 2, colour);
    const nx = (-(y1 - y0) / length) * (width / 2);
    const ny = ((x1 - x0) / length) * (width / 2);
    this.fillPolygon([[x0 + nx, y0 + ny], [x1 + nx, y1 + ny], [x1 - nx, y1 - ny], [x0 - nx, y0 - ny]], colour);
  }

  /** Text in the 3×5 font, `dot` pixels a dot, from its top-left corner; unknown characters as '?'. */
  text(x: number, y: number, text: string, dot: number, colour: Rgb): void {
    [...text.toLowerCase()].forEach((ch, n) => {
      const glyph = ch === ' ' ? '' : (FONT[ch] ?? FONT['?']!);
      for (let i = 0; i < glyph.length; i++) {
        if (glyph[i] !== '#') continue;
        const gx = Math.round(x + (n * 4 + (i % 3)) * dot);
        const gy = Math.round(y + Math.floor(i / 3) * dot);
        for (let dy = 0; dy < dot; dy++) for (let dx = 0; dx < dot; dx++) this.set(gx + dx, gy + dy, colour);
      }
    });
  }

  static textWidth(text: string, dot: number): number {
    return text.length * 4 * dot - dot;
  }
}
