import { describe, expect, it } from 'vitest';
import { openmvUsbBoards } from '../../../boards/micropython/usb-boards.js';

describe('OpenMV cameras by USB identity', () => {
  it('name each 5.x camera by its own PID and the 4.x cameras once by their shared identity', () => {
    const boards = openmvUsbBoards();
    expect(boards).toContainEqual({ fqbn: 'OPENMV4', name: 'OpenMV Cam H7, firmware 5.x', vid: '37c5', pid: '1204' });
    expect(boards).toContainEqual({ fqbn: 'ARDUINO_NICLA_VISION', name: 'Arduino Nicla Vision, firmware 5.x', vid: '2341', pid: '045f' });
    expect(boards.filter((b) => b.vid === '1209' && b.pid === 'abd1')).toEqual([
      { fqbn: 'openmv', name: 'OpenMV Cam, firmware 4.x (camera-info --usbdbg names the model)', vid: '1209', pid: 'abd1' },
    ]);
    expect(new Set(boards.map((b) => `${b.vid}:${b.pid}`)).size).toBe(boards.length);
  });
});
