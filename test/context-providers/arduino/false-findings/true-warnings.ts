// The WARNINGs the sketch check raises on the example corpus that are true: each is a real risk on
// that board, and says why. false-findings.test.ts counts every WARNING as true (listed here) or
// false (not listed), prints both counts, and fails on a false one: a false WARNING is fixed at its
// cause (findings-standard.test.ts holds each fix), never listed here.

export interface TrueWarning {
  code: string;
  /** Boards (FQBNs) it is true for; every board when absent. */
  boards?: RegExp;
  /** The file, relative as in true-errors.ts, and line; every file when absent (a rule of the code). */
  file?: string;
  line?: number;
  why: string;
}

export const TRUE_WARNINGS: TrueWarning[] = [
  {
    code: 'library-incompatible',
    why: "the library's library.properties `architectures` does not name the board's platform architecture: arduino-cli prints the same warning for the same files (arduino/arduino-cli 5994c5d internal/arduino/builder/libraries.go:288-303, warnAboutArchIncompatibleLibraries; no fixture platform sets architecture.override_check)",
  },
  {
    code: 'bus-pin-conflict',
    boards: /^arduino:samd:mkr/,
    file: 'arduino/hardware/samd/1.8.14/libraries/SPI/examples/DigitalPotControl/DigitalPotControl.ino',
    line: 65,
    why: "slaveSelectPin = 10 is the Uno's SS; on the MKR boards pin 10 is SPI's MISO (variant.h PIN_SPI_MISO), so pinMode/digitalWrite take it from the SERCOM and SPI reads break",
  },
  {
    code: 'no-spi',
    boards: /^arduino:renesas_uno:muxto$/,
    file: 'arduino/hardware/renesas_uno/1.5.3/libraries/Ethernet/examples/BarometricPressureWebServer/BarometricPressureWebServer.ino',
    line: 58,
    why: "the MUXTO variant defines no SPI_HOWMANY, and the platform's SPI.h declares `extern arduino::ArduinoSPI SPI;` only under `#if SPI_HOWMANY > 0`: the sketch does not even compile there",
  },
  ...[67, 103, 107].map((line) => ({
    code: 'pin-range',
    boards: /^arduino:mbed:edge_control$/,
    file: 'arduino/hardware/mbed/9.9.9/libraries/Scheduler/examples/MultipleBlinks/MultipleBlinks.ino',
    line,
    why: 'the Edge Control variant gives the LED it lacks the number 255; mbed returns from digitalWrite for a pin from PINS_COUNT up (ArduinoCore-mbed cores/arduino/wiring_digital.cpp), so that LED never blinks',
  })),
  {
    code: 'esp32-strapping-pin',
    boards: /^cm:esp32:/,
    why: "pinMode on GPIO0, 2, 5, 12 or 15, the ESP32's strapping pins (esp32-chips.json, cited from the ESP32 datasheet), that is not the board's own LED_BUILTIN: what the sketch wires there decides whether the chip boots (the check already leaves the board's own LED alone)",
  },
  ...['nicla_sense', 'nicla_voice'].map((board) => ({
    code: 'bus-pin-conflict',
    boards: new RegExp(`^arduino:mbed:${board}$`),
    file: 'arduino/hardware/mbed/9.9.9/libraries/Ethernet/examples/BarometricPressureWebServer/BarometricPressureWebServer.ino',
    line: 196,
    why: "chipSelectPin = 7 is the Uno's free pin 7; on the Nicla pin 7 is SPI's MISO (pins_arduino.h), so driving it as chip select fights the sensor's data line",
  })),
  {
    code: 'bus-pin-conflict',
    boards: /^cm:esp32:wheelson$/,
    file: 'cm/hardware/esp32/1.7.5/libraries/Wire/SerialFlash-0.5/examples/CopyFromSerial/CopyFromSerial.ino',
    line: 107,
    why: "the example blinks Teensy's LED on pin 13; on the Wheelson GPIO13 is SPI's MOSI (its pins_arduino.h), and pinMode/digitalWrite there take the pin from the SPI flash the sketch talks to",
  },
  {
    code: 'softserial-rx-pin',
    boards: /^arduino:avr:mega:/,
    file: 'debian-avr-libraries/SoftwareSerial/examples/TwoPortReceive/TwoPortReceive.ino',
    line: 43,
    why: "portTwo receives on pin 8, which has no pin-change interrupt on the Mega (mega/pins_arduino.h digitalPinToPCICR is 0 there); SoftwareSerial.cpp begin() sets up reception only when digitalPinToPCICR(_receivePin) is not null, and the example's own comment says 'on the Mega, use other pins instead, since 8 and 9 don't work on the Mega'",
  },
];
