// Each part kind as the circuit still draws it, in the part's own diagram pixels (0, 0 at its
// top-left, before rotation): a plain likeness of Wokwi's element at the element's size, with
// what it shows from its view (part-models.ts's PartView). The sizes are the width and height
// of each element's SVG in @wokwi/elements 1.x (src/*-element.ts, millimetres at 96 dpi);
// the 74HC595, which has no element, is the panel's DIP-16 box (ide-plugins/panel/circuit.css).
import type { DiagramPart } from '../../../platform/circuit/diagram.js';
import type { PartView } from '../part-models.js';
import type { Raster, Rgb } from './raster.js';

const MM = 96 / 25.4;

/** A point of the part's frame in image pixels. */
export type ToImage = (x: number, y: number) => [number, number];

const SIZES_MM: Record<string, readonly [number, number]> = {
  'wokwi-arduino-uno': [72.58, 53.34],
  'wokwi-arduino-nano': [44.9, 17.8],
  'wokwi-arduino-mega': [102.66, 50.8],
  'wokwi-pushbutton': [17.802, 12],
  'wokwi-slide-switch': [8.5, 9.23],
  'wokwi-potentiometer': [20, 20],
  'wokwi-servo': [45, 31.63],
  'wokwi-led-bar-graph': [10.1, 25.5],
  'wokwi-resistor': [15.645, 3],
  'wokwi-buzzer': [17, 20],
};
const SIZES_PX: Record<string, readonly [number, number]> = {
  'wokwi-led': [40, 50],
  'wokwi-rgb-led': [42.129, 72.582],
  'wokwi-74hc595': [84, 40],
};
const UNKNOWN_SIZE: readonly [number, number] = [40, 40];

/** The slide potentiometer's travel (its `travelLength` attribute, 30 mm by default). */
const travel = (part: DiagramPart) => Number(part.attrs.travelLength ?? '30') || 30;
const digits = (part: DiagramPart) => Math.min(4, Math.max(1, Number(part.attrs.digits ?? '1') || 1));

export function partSize(part: DiagramPart): [number, number] {
  if (part.type === 'wokwi-7segment') return [12.55 * digits(part) * MM, 22 * MM];
  if (part.type === 'wokwi-slide-potentiometer') return [(travel(part) + 25) * MM, 29 * MM];
  const mm = SIZES_MM[part.type];
  if (mm) return [mm[0] * MM, mm[1] * MM];
  const px = SIZES_PX[part.type] ?? UNKNOWN_SIZE;
  return [px[0], px[1]];
}

// CSS colour names Wokwi's parts and wires use (docs.wokwi.com/parts/wokwi-led "color"; wire colours are CSS names).
const NAMED: Record<string, Rgb> = {
  red: [255, 0, 0], green: [0, 128, 0], limegreen: [50, 205, 50], lime: [0, 255, 0], blue: [0, 0, 255], yellow: [255, 255, 0],
  orange: [255, 165, 0], white: [255, 255, 255], black: [0, 0, 0], purple: [128, 0, 128], violet: [238, 130, 238], magenta: [255, 0, 255],
  cyan: [0, 255, 255], gold: [255, 215, 0], gray: [128, 128, 128], grey: [128, 128, 128], brown: [165, 42, 42], pink: [255, 192, 203],
};

export function colourOf(name: string | undefined, fallback: Rgb): Rgb {
  if (!name) return fallback;
  const named = NAMED[name.toLowerCase()];
  if (named) return named;
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(name)?.[1];
  if (!hex) return fallback;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as unknown as Rgb;
}

/** The colour `factor` of the way from black (0) to itself (1); black itself drawn as dark grey. */
export function shade(colour: Rgb, factor: number): Rgb {
  const base: Rgb = colour.every((c) => c === 0) ? [40, 40, 40] : colour;
  return base.map((c) => Math.round(c * factor)) as unknown as Rgb;
}

function mix(from: Rgb, to: Rgb, t: number): Rgb {
  const k = Math.min(1, Math.max(0, t));
  return from.map((c, i) => Math.round(c + (to[i]! - c) * k)) as unknown as Rgb;
}

const BOARD: Rgb = [31, 107, 140];
const PCB_DARK: Rgb = [34, 34, 34];
const METAL: Rgb = [190, 190, 190];
const BODY: Rgb = [60, 60, 66];
const WHITE: Rgb = [250, 250, 250];

class Pen {
  constructor(
    private readonly raster: Raster,
    private readonly at: ToImage,
    private readonly scale: number,
  ) {}
  rect(x: number, y: number, w: number, h: number, colour: Rgb): void {
    this.raster.fillPolygon([this.at(x, y), this.at(x + w, y), this.at(x + w, y + h), this.at(x, y + h)], colour);
  }
  circle(x: number, y: number, r: number, colour: Rgb): void {
    const [cx, cy] = this.at(x, y);
    this.raster.fillCircle(cx, cy, r * this.scale, colour);
  }
  line(x0: number, y0: number, x1: number, y1: number, width: number, colour: Rgb): void {
    const a = this.at(x0, y0);
    const b = this.at(x1, y1);
    this.raster.line(a[0], a[1], b[0], b[1], Math.max(1, width * this.scale), colour);
  }
}

/** The centre of the LED's lens in its own frame (the element's dome; pins at y 42). */
export const LED_LENS = { x: 20, y: 18, r: 10 } as const;
export const RGB_LED_LENS = { x: 21, y: 20, r: 12 } as const;

export function drawPart(raster: Raster, part: DiagramPart, view: PartView, at: ToImage, scale: number): void {
  const pen = new Pen(raster, at, scale);
  const [w, h] = partSize(part);
  const num = (key: string): number | undefined => (typeof view[key] === 'number' ? (view[key] as number) : undefined);
  const list = (key: string): number[] => (Array.isArray(view[key]) ? (view[key] as number[]) : []);
  switch (part.type) {
    case 'wokwi-arduino-uno':
    case 'wokwi-arduino-mega':
    case 'wokwi-arduino-nano': {
      pen.rect(0, 0, w, h, BOARD);
      const nano = part.type === 'wokwi-arduino-nano';
      // The headers: digital along the top edge, power and analog along the bottom (a Nano's along both long sides).
      pen.rect(nano ? 0.08 * w : 0.3 * w, 0.02 * h, nano ? 0.84 * w : 0.66 * w, nano ? 0.12 * h : 0.07 * h, PCB_DARK);
      pen.rect(nano ? 0.08 * w : 0.36 * w, nano ? 0.86 * h : 0.91 * h, nano ? 0.84 * w : 0.55 * w, nano ? 0.12 * h : 0.07 * h, PCB_DARK);
      pen.rect(nano ? 0.4 * w : 0.55 * w, nano ? 0.3 * h : 0.55 * h, nano ? 0.2 * w : 0.35 * w, nano ? 0.4 * h : 0.14 * h, PCB_DARK);
      if (!nano) {
        pen.rect(-0.02 * w, 0.15 * h, 0.16 * w, 0.22 * h, METAL);
        pen.rect(-0.01 * w, 0.7 * h, 0.13 * w, 0.2 * h, PCB_DARK);
      } else pen.rect(-0.04 * w, 0.32 * h, 0.1 * w, 0.36 * h, METAL);
      return;
    }
    case 'wokwi-led': {
      const colour = colourOf(part.attrs.color, NAMED.red!);
      pen.line(15, 28, 15, 48, 1.5, METAL);
      pen.line(25, 28, 25, 44, 1.5, METAL);
      const on = view.on === true;
      pen.circle(LED_LENS.x, LED_LENS.y, LED_LENS.r, on ? mix(shade(colour, 0.3), colour, num('brightness') ?? 1) : shade(colour, 0.3));
      return;
    }
    case 'wokwi-rgb-led': {
      for (const x of [9, 17, 25, 33]) pen.line(x, 34, x, 66, 1.5, METAL);
      const rgb = list('rgb');
      pen.circle(RGB_LED_LENS.x, RGB_LED_LENS.y, RGB_LED_LENS.r, rgb.some((d) => d >= 0.01) ? (rgb.slice(0, 3).map((d) => Math.round(40 + 215 * d)) as unknown as Rgb) : [70, 70, 70]);
      return;
    }
    case 'wokwi-7segment': {
      const colour = colourOf(part.attrs.color, NAMED.red!);
      const dark: Rgb = [72, 60, 60];
      pen.rect(0, 0, w, 20.5 * MM, PCB_DARK);
      const segments = list('segments');
      for (let d = 0; d < digits(part); d++) {
        const ox = d * 12.55 * MM;
        const lit = (i: number) => (segments[d * 8 + i] === 1 ? colour : dark);
        const t = 1.4 * MM;
        const [x0, x1, top, mid, bottom] = [3.6 * MM, 8.6 * MM, 2.6 * MM, 10.25 * MM, 17.9 * MM];
        pen.rect(ox + x0, top - t / 2, x1 - x0, t, lit(0)); // A
        pen.rect(ox + x1, top, t, mid - top, lit(1)); // B
        pen.rect(ox + x1, mid, t, bottom - mid, lit(2)); // C
        pen.rect(ox + x0, bottom - t / 2, x1 - x0, t, lit(3)); // D
        pen.rect(ox + x0 - t, mid, t, bottom - mid, lit(4)); // E
        pen.rect(ox + x0 - t, top, t, mid - top, lit(5)); // F
        pen.rect(ox + x0, mid - t / 2, x1 - x0, t, lit(6)); // G
        pen.circle(ox + x1 + 2.4 * MM, bottom, 0.8 * MM, lit(7)); // DP
      }
      return;
    }
    case 'wokwi-led-bar-graph': {
      const colour = colourOf(part.attrs.color, NAMED.red!);
      pen.rect(0, 0, w, h, PCB_DARK);
      const bars = list('bars');
      const pitch = (h - 6) / 10;
      for (let i = 0; i < 10; i++) pen.rect(0.2 * w, 3 + i * pitch + pitch * 0.15, 0.6 * w, pitch * 0.7, mix(shade(colour, 0.3), colour, bars[i] ?? 0));
      return;
    }
    case 'wokwi-servo': {
      pen.rect(0, 0.15 * h, w, 0.7 * h, [30, 60, 120]);
      const pivot: [number, number] = [0.3 * w, 0.5 * h];
      // 0° points left, 90° up, 180° right: the horn turns as the angle grows.
      const angle = num('angle');
      const a = (((angle ?? 90) - 180) * Math.PI) / 180;
      const r = 0.45 * h;
      pen.line(pivot[0], pivot[1], pivot[0] + Math.cos(a) * r, pivot[1] + Math.sin(a) * r, 0.12 * h, angle === undefined ? METAL : WHITE);
      pen.circle(pivot[0], pivot[1], 0.09 * h, WHITE);
      return;
    }
    case 'wokwi-pushbutton': {
      const colour = colourOf(part.attrs.color, NAMED.red!);
      pen.rect(0.15 * w, 0, 0.7 * w, h, BODY);
      pen.circle(w / 2, h / 2, 0.32 * h, view.pressed === true ? shade(colour, 0.55) : colour);
      return;
    }
    case 'wokwi-slide-switch': {
      pen.rect(0, 0.2 * h, w, 0.45 * h, BODY);
      pen.rect(num('value') === 1 ? 0.5 * w : 0.1 * w, 0.05 * h, 0.4 * w, 0.3 * h, METAL);
      return;
    }
    case 'wokwi-potentiometer': {
      pen.circle(w / 2, h / 2, 0.48 * w, [40, 70, 140]);
      pen.circle(w / 2, h / 2, 0.3 * w, METAL);
      // The knob's mark turns through 270°, from 135° left of up (0.0) to 135° right (1.0).
      const phi = ((-135 + 270 * (num('position') ?? 0)) * Math.PI) / 180;
      pen.line(w / 2, h / 2, w / 2 + Math.sin(phi) * 0.3 * w, h / 2 - Math.cos(phi) * 0.3 * w, 0.06 * w, PCB_DARK);
      return;
    }
    case 'wokwi-slide-potentiometer': {
      pen.rect(0, 0.3 * h, w, 0.4 * h, BODY);
      pen.rect(12.5 * MM, 0.47 * h, travel(part) * MM, 0.06 * h, PCB_DARK);
      pen.rect((12.5 + (num('position') ?? 0) * travel(part)) * MM - 3 * MM, 0.15 * h, 6 * MM, 0.7 * h, METAL);
      return;
    }
    case 'wokwi-resistor':
      pen.line(0, h / 2, w, h / 2, 1.5, METAL);
      pen.rect(0.25 * w, 0, 0.5 * w, h, [214, 190, 140]);
      return;
    case 'wokwi-buzzer':
      pen.circle(w / 2, 0.45 * h, 0.48 * w, PCB_DARK);
      pen.circle(w / 2, 0.45 * h, 0.1 * w, (num('hz') ?? 0) > 0 ? [255, 200, 0] : METAL);
      return;
    case 'wokwi-74hc595':
      for (let i = 0; i < 8; i++) {
        pen.rect(4 + i * 9.6, -3, 4, 3, METAL);
        pen.rect(4 + i * 9.6, h, 4, 3, METAL);
      }
      pen.rect(0, 0, w, h, PCB_DARK);
      return;
    default:
      // A part the simulator does not model (its note says so): a grey box where it sits.
      pen.rect(0, 0, w, h, [200, 200, 200]);
      pen.rect(3, 3, w - 6, h - 6, [225, 225, 225]);
  }
}
