// Line settings for a serial port, checked where they enter so the rest of the hub can trust them.

// serialport's Linux and macOS bindings know no mark/space parity.
export type Parity = 'none' | 'even' | 'odd';
export type DataBits = 5 | 6 | 7 | 8;
export type StopBits = 1 | 1.5 | 2;

export interface PortSettings {
  baudRate: number;
  dataBits: DataBits;
  parity: Parity;
  stopBits: StopBits;
  /** Modem lines set right after opening; left as the OS sets them when absent. */
  dtr?: boolean;
  rts?: boolean;
}

export const DEFAULT_SETTINGS: PortSettings = { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 };

const PARITIES: readonly Parity[] = ['none', 'even', 'odd'];

/** Merges over the defaults; a bad value throws a RangeError naming the field and the allowed values. */
export function portSettings(partial: Partial<PortSettings> = {}): PortSettings {
  const settings = { ...DEFAULT_SETTINGS, ...dropUndefined(partial) };
  if (!Number.isInteger(settings.baudRate) || settings.baudRate <= 0) {
    throw new RangeError(`baud rate must be a positive whole number such as 9600 or 115200, got ${settings.baudRate}`);
  }
  if (![5, 6, 7, 8].includes(settings.dataBits)) {
    throw new RangeError(`data bits must be 5, 6, 7 or 8, got ${settings.dataBits}`);
  }
  if (!PARITIES.includes(settings.parity)) {
    throw new RangeError(`parity must be one of ${PARITIES.join(', ')}, got ${settings.parity}`);
  }
  if (![1, 1.5, 2].includes(settings.stopBits)) {
    throw new RangeError(`stop bits must be 1, 1.5 or 2, got ${settings.stopBits}`);
  }
  return settings;
}

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
