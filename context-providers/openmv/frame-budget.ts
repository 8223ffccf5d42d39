// Frame buffer arithmetic: what a frame needs per pixel format, what fits a board's frame buffer,
// and the nearest change that makes an oversized frame fit. The firmware refuses a frame when
// width × height × bytes per pixel exceeds the frame buffer divided by the number of buffers
// ("Frame buffer overflow, try reducing the frame size."); headers make the real limit a bit lower.
import { cameraApi, frameBytes, frameSizesLargestFirst, type PixelFormat } from './camera-api.js';

export interface Frame {
  /** Frame size constant, absent for a window or a (w, h) tuple. */
  sizeName?: string;
  width: number;
  height: number;
  format: PixelFormat;
  buffers: number;
}

export interface FitsEntry {
  format: PixelFormat;
  /** Largest frame size constant that fits, by pixel count. */
  largest?: { name: string; width: number; height: number; bytes: number };
  /** Largest 4:3 frame size that fits (QVGA, VGA, ...), when it differs from `largest`. */
  largest4by3?: { name: string; width: number; height: number; bytes: number };
}

export const bytesText = (bytes: number): string => bytes.toLocaleString('en-US');

/** `400 KB`, `16 MB`: how the firmware's board files state sizes (K = 1024). */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}

export function frameTotal(frame: Frame): number {
  return frameBytes(frame.width, frame.height, frame.format) * frame.buffers;
}

export function frameName(frame: Frame): string {
  return frame.sizeName ?? `${frame.width}×${frame.height}`;
}

function largestFitting(format: PixelFormat, budget: number, filter: (w: number, h: number) => boolean) {
  for (const size of frameSizesLargestFirst()) {
    if (!filter(size.width, size.height)) continue;
    const bytes = frameBytes(size.width, size.height, format);
    if (bytes <= budget) return { ...size, bytes };
  }
  return undefined;
}

const is4by3 = (w: number, h: number): boolean => w * 3 === h * 4;

/** For each pixel format, the largest frame size that fits `budget` (one frame buffer). */
export function largestFits(budget: number): FitsEntry[] {
  // BINARY is an image format, not a capture format worth budgeting for.
  return cameraApi().pixelFormats.filter((format) => format !== 'BINARY').map((format) => {
    const largest = largestFitting(format, budget, () => true);
    const largest4by3 = largestFitting(format, budget, is4by3);
    return { format, largest, largest4by3: largest4by3?.name !== largest?.name ? largest4by3 : undefined };
  });
}

// Formats to offer instead, cheapest colour information lost first.
const SMALLER_FORMATS: PixelFormat[] = ['GRAYSCALE', 'BAYER'];

/** "use GRAYSCALE (307,200 bytes) or QVGA": changes that make `frame` fit `budget`. */
export function fittingAlternatives(frame: Frame, budget: number): string[] {
  const perBuffer = budget / frame.buffers;
  const options: string[] = [];
  const format = SMALLER_FORMATS.find(
    (f) => f !== frame.format && frameBytes(frame.width, frame.height, f) < frameBytes(frame.width, frame.height, frame.format) &&
      frameBytes(frame.width, frame.height, f) <= perBuffer,
  );
  if (format) {
    const each = bytesText(frameBytes(frame.width, frame.height, format));
    options.push(`${format} (${frame.buffers > 1 ? `${frame.buffers} × ${each}` : each} bytes)`);
  }
  // Prefer the same shape (VGA → QVGA); a shape with no smaller sibling falls back to any size.
  const sameShape = (w: number, h: number) => w * frame.height === h * frame.width && w < frame.width;
  const anySmaller = (w: number, h: number) => w * h < frame.width * frame.height;
  const smaller =
    (frame.sizeName ? largestFitting(frame.format, perBuffer, sameShape) : undefined) ??
    largestFitting(frame.format, perBuffer, anySmaller);
  if (smaller) options.push(frame.sizeName ? smaller.name : `a window of at most ${smaller.width}×${smaller.height}`);
  if (frame.buffers > 1 && frameBytes(frame.width, frame.height, frame.format) <= budget) {
    options.push(`fewer frame buffers (one ${frameName(frame)} ${frame.format} frame is ${bytesText(frameBytes(frame.width, frame.height, frame.format))} bytes)`);
  }
  return options;
}

export function frameSize(name: string): { width: number; height: number } | undefined {
  const size = cameraApi().frameSizes[name];
  return size ? { width: size[0], height: size[1] } : undefined;
}
