// Windows serial port names: COM3, com3, \\.\COM3 and \\?\COM3 are one port (serialport's
// Windows binding adds the \\.\ prefix CreateFile needs from COM10 up).
const WINDOWS_PORT = /^(?:\\\\[.?]\\)?(com)(\d+)$/i;

/** `COMn` for any way of writing a Windows serial port, else undefined. */
export function windowsPortName(name: string): string | undefined {
  const match = WINDOWS_PORT.exec(name.trim());
  return match && Number(match[2]) > 0 ? `COM${Number(match[2])}` : undefined;
}

/**
 * The name to give serialport's binding: on Windows always `COMn`, since the binding itself puts
 * \\.\ in front of what it gets (a \\.\COM3 from the user would become \\.\\\.\COM3).
 */
export function bindingPath(name: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? (windowsPortName(name) ?? name) : name;
}
