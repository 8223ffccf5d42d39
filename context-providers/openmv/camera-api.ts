// The camera API of both firmware generations (boards/data/openmv-camera-api.json): frame sizes,
// pixel formats and their sizes, the `sensor` module's functions, the `csi.CSI` class's methods,
// and what each sensor driver implements.
import { dataJson, lazily } from '../../platform/data-files.js';

export type PixelFormat = 'BINARY' | 'GRAYSCALE' | 'BAYER' | 'RGB565' | 'YUV422' | 'JPEG';

export interface SensorFacts {
  /** Driver functions the sensor implements, e.g. `set_lens_correction`. */
  controls: string[];
  hardwareJpeg: boolean;
  maxResolution?: { width: number; height: number; source: string };
  source: string;
}

type ApiData = typeof import('../../boards/data/openmv-camera-api.json', { with: { type: 'json' } });

export interface CameraApi {
  pixelFormats: readonly PixelFormat[];
  frameSizes: Readonly<Record<string, readonly number[]>>;
  sensorFunctions: ReadonlySet<string>;
  sensorConstants: ReadonlySet<string>;
  csiMethods: ReadonlySet<string>;
  csiConstants: ReadonlySet<string>;
  /** The first firmware with the `csi.CSI` class. */
  csiFirstFirmware: string;
  sensors: Readonly<Record<string, SensorFacts>>;
  /** Controls the firmware carries out itself when a sensor driver lacks them (set_framerate). */
  softwareControls: ReadonlySet<string>;
  sources: { sensor: string; csi: string };
  sensorIds: Readonly<Record<string, string>>;
  bitsPerPixel: Readonly<Record<PixelFormat, number>>;
}

/** The camera API, read from its data file the first time a check needs it. */
export const cameraApi = lazily((): CameraApi => {
  const data = dataJson<ApiData>('openmv-camera-api.json');
  const formats = Object.keys(data.pixelFormats) as PixelFormat[];
  return {
    pixelFormats: formats,
    frameSizes: data.frameSizes,
    sensorFunctions: new Set(data.sensorModule.functions),
    sensorConstants: new Set(data.sensorModule.constants),
    csiMethods: new Set(data.csiModule.classMethods),
    csiConstants: new Set(data.csiModule.constants),
    csiFirstFirmware: data.csiModule.firstFirmware,
    sensors: data.sensors as Record<string, SensorFacts>,
    softwareControls: new Set(Object.keys(data.softwareControls)),
    sources: { sensor: data.sensorModule.source, csi: data.csiModule.source },
    sensorIds: data.sensorIds as Record<string, string>,
    bitsPerPixel: Object.fromEntries(formats.map((format) => [format, data.pixelFormats[format].bitsPerPixel])) as Record<PixelFormat, number>,
  };
});

/** The sensor family for a chip id as SENSOR_ID / `get_id()` report it (0xFF: none detected). */
export function sensorForId(id: number): string | undefined {
  return cameraApi().sensorIds[`0x${id.toString(16).toUpperCase()}`];
}

export function isPixelFormat(name: string): name is PixelFormat {
  return (cameraApi().pixelFormats as readonly string[]).includes(name);
}

/** JPEG sizes are an estimate: the sensor compresses, so the real size depends on the scene. */
export function isEstimate(format: PixelFormat): boolean {
  return format === 'JPEG';
}

/** Bytes one frame takes in the frame buffer (image data only; the header adds a little). */
export function frameBytes(width: number, height: number, format: PixelFormat): number {
  // imlib stores BINARY rows as whole 32-bit words.
  if (format === 'BINARY') return Math.ceil(width / 32) * 4 * height;
  return (width * height * cameraApi().bitsPerPixel[format]) / 8;
}

/** The names of the sensor-module setter and its csi.CSI method, both ways (`set_windowing` ↔ `window`). */
const V4_TO_V5: Record<string, string> = {
  set_windowing: 'window',
  get_windowing: 'window',
  get_id: 'cid',
  set_framebuffers: 'framebuffers',
  get_framebuffers: 'framebuffers',
  skip_frames: 'snapshot',
  get_fb: 'snapshot',
};

export function csiMethodFor(sensorFunction: string): string | undefined {
  const mapped = V4_TO_V5[sensorFunction] ?? sensorFunction.replace(/^(set|get)_/, '');
  return cameraApi().csiMethods.has(mapped) ? mapped : undefined;
}

export function sensorFunctionFor(csiMethod: string): string | undefined {
  for (const candidate of [`set_${csiMethod}`, `get_${csiMethod}`, csiMethod]) {
    if (cameraApi().sensorFunctions.has(candidate)) return candidate;
  }
  const reverse = Object.entries(V4_TO_V5).find(([v4, v5]) => v5 === csiMethod && v4.startsWith('set_'));
  return reverse?.[0];
}

/** Frame size constants by pixel count, largest first. */
export function frameSizesLargestFirst(): Array<{ name: string; width: number; height: number }> {
  return Object.entries(cameraApi().frameSizes)
    .map(([name, [width, height]]) => ({ name, width, height }))
    .sort((a, b) => b.width * b.height - a.width * a.height);
}
