// The camera API of both firmware generations (boards/data/openmv-camera-api.json): frame sizes,
// pixel formats and their sizes, the `sensor` module's functions, the `csi.CSI` class's methods,
// and what each sensor driver implements.
import apiData from '../../boards/data/openmv-camera-api.json' with { type: 'json' };

export type PixelFormat = 'BINARY' | 'GRAYSCALE' | 'BAYER' | 'RGB565' | 'YUV422' | 'JPEG';

export interface SensorFacts {
  /** Driver functions the sensor implements, e.g. `set_lens_correction`. */
  controls: string[];
  hardwareJpeg: boolean;
  maxResolution?: { width: number; height: number; source: string };
  source: string;
}

export const PIXEL_FORMATS = Object.keys(apiData.pixelFormats) as PixelFormat[];
export const FRAME_SIZES: Readonly<Record<string, readonly number[]>> = apiData.frameSizes;
export const SENSOR_FUNCTIONS: ReadonlySet<string> = new Set(apiData.sensorModule.functions);
export const SENSOR_CONSTANTS: ReadonlySet<string> = new Set(apiData.sensorModule.constants);
export const CSI_METHODS: ReadonlySet<string> = new Set(apiData.csiModule.classMethods);
export const CSI_CONSTANTS: ReadonlySet<string> = new Set(apiData.csiModule.constants);
/** The first firmware with the `csi.CSI` class. */
export const CSI_FIRST_FIRMWARE = apiData.csiModule.firstFirmware;
export const SENSORS: Readonly<Record<string, SensorFacts>> = apiData.sensors as Record<string, SensorFacts>;
/** Controls the firmware carries out itself when a sensor driver lacks them (set_framerate). */
export const SOFTWARE_CONTROLS: ReadonlySet<string> = new Set(Object.keys(apiData.softwareControls));
export const API_SOURCES = { sensor: apiData.sensorModule.source, csi: apiData.csiModule.source };

const SENSOR_IDS = apiData.sensorIds as Record<string, string>;

/** The sensor family for a chip id as SENSOR_ID / `get_id()` report it (0xFF: none detected). */
export function sensorForId(id: number): string | undefined {
  return SENSOR_IDS[`0x${id.toString(16).toUpperCase()}`];
}

export function isPixelFormat(name: string): name is PixelFormat {
  return name in apiData.pixelFormats;
}

/** JPEG sizes are an estimate: the sensor compresses, so the real size depends on the scene. */
export function isEstimate(format: PixelFormat): boolean {
  return format === 'JPEG';
}

/** Bytes one frame takes in the frame buffer (image data only; the header adds a little). */
export function frameBytes(width: number, height: number, format: PixelFormat): number {
  // imlib stores BINARY rows as whole 32-bit words.
  if (format === 'BINARY') return Math.ceil(width / 32) * 4 * height;
  return (width * height * apiData.pixelFormats[format].bitsPerPixel) / 8;
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
  return CSI_METHODS.has(mapped) ? mapped : undefined;
}

export function sensorFunctionFor(csiMethod: string): string | undefined {
  for (const candidate of [`set_${csiMethod}`, `get_${csiMethod}`, csiMethod]) {
    if (SENSOR_FUNCTIONS.has(candidate)) return candidate;
  }
  const reverse = Object.entries(V4_TO_V5).find(([v4, v5]) => v5 === csiMethod && v4.startsWith('set_'));
  return reverse?.[0];
}

/** Frame size constants by pixel count, largest first. */
export function frameSizesLargestFirst(): Array<{ name: string; width: number; height: number }> {
  return Object.entries(FRAME_SIZES)
    .map(([name, [width, height]]) => ({ name, width, height }))
    .sort((a, b) => b.width * b.height - a.width * a.height);
}
