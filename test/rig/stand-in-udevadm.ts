// A stand-in for `udevadm info -e` (this machine has no udev): a script first on PATH that
// prints the records serialport's Linux lister parses, so the real `SerialPort.list()` runs.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FakeUsbSerial {
  /** Device path to report, e.g. a pty link named like /dev/ttyACM0. */
  path: string;
  vid: string;
  pid: string;
  serial: string;
  vendor: string;
}

/** Writes the script and returns its folder, to be put first on PATH. */
export function standInUdevadm(devices: FakeUsbSerial[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'bb-udevadm-'));
  const records = devices
    .map((device, index) =>
      [
        `P: /devices/pci0000:00/usb1/1-${index + 1}/1-${index + 1}:1.0/tty/ttyACM${index}`,
        `N: ttyACM${index}`,
        `E: DEVNAME=${device.path}`,
        `E: ID_VENDOR_ID=${device.vid}`,
        `E: ID_MODEL_ID=${device.pid}`,
        `E: ID_SERIAL_SHORT=${device.serial}`,
        `E: ID_VENDOR_ENC=${device.vendor.replace(/ /g, '\\x20')}`,
        `E: DEVLINKS=/dev/serial/by-id/usb-${device.vendor.replace(/ /g, '_')}_${device.serial}-if00`,
        '',
      ].join('\n'),
    )
    .join('\n');
  const script = join(dir, 'udevadm');
  writeFileSync(script, `#!/bin/sh\ncat <<'RECORDS'\n${records}\nRECORDS\n`);
  chmodSync(script, 0o755);
  return dir;
}
