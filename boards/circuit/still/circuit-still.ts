// A still of the circuit as it is now, as a PNG an agent's model can look at: the diagram's parts
// at their `left`/`top`/`rotate` (Wokwi's diagram pixels), what each shows (part-models.ts's
// views: LEDs lit at their brightness, the 7-segment's segments, the servo's horn, the bar
// graph), the wires in their colours and each part's id. No browser draws it: the shapes are
// simple stand-ins for Wokwi's elements, at the elements' own sizes (part-shapes.ts).
import type { PartLook } from '../circuit.js';
import type { Diagram, DiagramPart } from '../../../platform/circuit/diagram.js';
import { encodePng } from './png.js';
import { Raster, type Rgb } from './raster.js';
import { colourOf, drawPart, partSize, shade } from './part-shapes.js';

/** The still's bounds: an image an agent's model takes whole, small in its context. */
export const STILL_MAX_WIDTH = 800;
export const STILL_MAX_HEIGHT = 600;
/** Diagram pixels are drawn at most this much larger (a diagram of three parts is not a thumbnail). */
const MAX_SCALE = 2;
const MARGIN = 16;
const BACKGROUND: Rgb = [244, 244, 240];
const LABEL: Rgb = [40, 40, 40];

export interface CircuitStill {
  png: Buffer;
  width: number;
  height: number;
  /** Image pixels per diagram pixel, and the diagram point drawn at the image's (0, 0). */
  scale: number;
  origin: readonly [number, number];
}

/** Where a part's local point lands in diagram pixels: Wokwi rotates a part about its centre. */
export function placer(part: DiagramPart): (x: number, y: number) => [number, number] {
  const [w, h] = partSize(part);
  const cx = (part.left ?? 0) + w / 2;
  const cy = (part.top ?? 0) + h / 2;
  const a = ((part.rotate ?? 0) * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  return (x, y) => [cx + (x - w / 2) * cos - (y - h / 2) * sin, cy + (x - w / 2) * sin + (y - h / 2) * cos];
}

export function circuitStill(diagram: Diagram, looks: readonly PartLook[]): CircuitStill {
  const corners = diagram.parts.flatMap((part) => {
    const [w, h] = partSize(part);
    const at = placer(part);
    return [at(0, 0), at(w, 0), at(0, h), at(w, h + 12)];
  });
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  const minX = (xs.length ? Math.min(...xs) : 0) - MARGIN;
  const minY = (ys.length ? Math.min(...ys) : 0) - MARGIN;
  const spanX = Math.max((xs.length ? Math.max(...xs) : 0) + MARGIN - minX, 1);
  const spanY = Math.max((ys.length ? Math.max(...ys) : 0) + MARGIN - minY, 1);
  const scale = Math.min(MAX_SCALE, STILL_MAX_WIDTH / spanX, STILL_MAX_HEIGHT / spanY);
  const width = Math.max(1, Math.min(STILL_MAX_WIDTH, Math.round(spanX * scale)));
  const height = Math.max(1, Math.min(STILL_MAX_HEIGHT, Math.round(spanY * scale)));
  const raster = new Raster(width, height, BACKGROUND);
  const toImage = (p: readonly [number, number]): [number, number] => [(p[0] - minX) * scale, (p[1] - minY) * scale];

  const byId = new Map(diagram.parts.map((part) => [part.id, part]));
  for (const wire of diagram.wires) {
    const from = byId.get(wire.from.part);
    const to = byId.get(wire.to.part);
    if (!from || !to || from === to) continue;
    const a = toImage(edgeToward(from, centre(to)));
    const b = toImage(edgeToward(to, centre(from)));
    raster.line(a[0], a[1], b[0], b[1], Math.max(1.5, 2 * scale), wireColour(wire.color));
  }

  const shown = new Map(looks.map((look) => [look.id, look]));
  const dot = scale >= 1.2 ? 2 : 1;
  for (const part of diagram.parts) {
    const at = placer(part);
    drawPart(raster, part, shown.get(part.id)?.view ?? {}, (x, y) => toImage(at(x, y)), scale);
    const [w, h] = partSize(part);
    const [lx, ly] = toImage(at(w / 2, h));
    const label = part.id.slice(0, 16);
    raster.text(lx - Raster.textWidth(label, dot) / 2, ly + 3, label, dot, LABEL);
  }
  return { png: encodePng(width, height, raster.data), width, height, scale, origin: [minX, minY] };
}

function centre(part: DiagramPart): [number, number] {
  const [w, h] = partSize(part);
  return placer(part)(w / 2, h / 2);
}

// The point where the line from the part's centre to `target` leaves its box: the still draws
// no pin positions (each element computes its own), so a wire ends at the side facing its other end.
function edgeToward(part: DiagramPart, target: readonly [number, number]): [number, number] {
  const [w, h] = partSize(part);
  const c = centre(part);
  const dx = target[0] - c[0];
  const dy = target[1] - c[1];
  if (dx === 0 && dy === 0) return c;
  const a = ((part.rotate ?? 0) * Math.PI) / 180;
  // The direction in the part's own frame, where its box is axis-aligned.
  const lx = dx * Math.cos(a) + dy * Math.sin(a);
  const ly = -dx * Math.sin(a) + dy * Math.cos(a);
  const t = Math.min(lx === 0 ? Infinity : w / 2 / Math.abs(lx), ly === 0 ? Infinity : h / 2 / Math.abs(ly), 1);
  return [c[0] + dx * t, c[1] + dy * t];
}

function wireColour(colour: string | undefined): Rgb {
  // Wokwi's default wire is green; a black wire stays visible on the light ground.
  return colour === undefined ? [60, 140, 60] : shade(colourOf(colour, [60, 140, 60]), 1);
}
