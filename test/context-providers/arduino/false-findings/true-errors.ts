// The ERRORs the sketch check raises on real example sketches that are true: each is a compile
// failure or a real run-time fault on that board, and says why. false-findings.test.ts fails on
// any ERROR not listed here, and on any entry here that is no longer raised.

export interface TrueError {
  /** Boards (FQBNs) the error is raised and true for. */
  boards: RegExp;
  /** The sketch file, relative to the fixture packages folder or `debian-examples/`. */
  file: string;
  line: number;
  code: string;
  why: string;
}

const AVR_THREE = /^arduino:avr:(uno|mega|leonardo)/;
const NO_LIBRARY = "the library is not installed here (Debian's arduino-core-avr ships no libraries but the core's own); arduino-builder fails with 'No such file or directory'";

export const TRUE_ERRORS: TrueError[] = [
  { boards: /^rp2040:rp2040:/, file: 'rp2040/hardware/rp2040/6.0.0/libraries/SD/examples/Datalogger/Datalogger.ino', line: 85, code: 'analog-pin', why: "the loop reads analogRead(0..2); arduino-pico's analogRead returns 0 for a pin below the ADC's first GPIO (arduino-pico cores/rp2040/wiring_analog.cpp:137-143)" },
  { boards: /^rp2040:rp2040:rpipicow$/, file: 'rp2040/hardware/rp2040/6.0.0/libraries/rp2040/examples/Fade/Fade.ino', line: 24, code: 'pwm-pin', why: "analogWrite(LED_BUILTIN): on the Pico W LED_BUILTIN is 64, a GPIO of the CYW43 Wi-Fi chip; arduino-pico's analogWrite returns for a pin past the RP2040's GPIOs ('Illegal analogWrite pin', cores/rp2040/wiring_analog.cpp), so the LED does not fade" },
  ...[65, 66, 68, 70, 71, 72, 84, 86].map((line) => ({
    boards: /^arduino:renesas_uno:(minima|nanor4|muxto)$/,
    file: 'arduino/hardware/renesas_uno/1.5.3/libraries/WiFi/examples/C3SerialPassthrough/C3SerialPassthrough.ino',
    line,
    code: 'pin-range',
    why: "pins 28/29 are the Portenta C33's ESP32-C3 control pins; g_pin_cfg has 27 rows on the Minima, 28 on the Science Kit R3 Audio Module (muxto) and 29 on the Nano R4, and pinMode/digitalWrite index g_pin_cfg[pin] without a bounds check (ArduinoCore-renesas cores/arduino/digital.cpp)",
  })),
  ...[['AnalogWave/examples/DACEqualTemperedScale/DACEqualTemperedScale.ino', 47], ['AnalogWave/examples/SineWave/SineWave.ino', 23]].map(([file, line]) => ({
    boards: /^arduino:renesas_uno:muxto$/,
    file: `arduino/hardware/renesas_uno/1.5.3/libraries/${file}`,
    line: line as number,
    code: 'analog-pin',
    why: "analogRead(A5): on the Science Kit R3 Audio Module A5 is pin 21, P409, whose g_pin_cfg row says 'this pin has NOT analog input capability' (variants/MUXTO/variant.cpp) and whose list has no PIN_ANALOG, so analog.cpp's get_ADC_container_ptr finds no ADC",
  })),
  ...[['Ethernet/examples/WebServer/WebServer.ino', 76], ['WiFi/examples/WiFiWebServer/WiFiWebServer.ino', 93], ['WiFiS3/examples/WiFiWebServer/WiFiWebServer.ino', 96]].map(([file, line]) => ({
    boards: /^arduino:renesas_uno:opta_analog$/,
    file: `arduino/hardware/renesas_uno/1.5.3/libraries/${file}`,
    line: line as number,
    code: 'analog-pin',
    why: "the loop reads analogRead(0..5), the Uno's A0-A5; on the Opta Analog pins 4 and 5 are P107/P105 (PWM_0, PWM_1) with no PIN_ANALOG entry, and its variant defines no A0, so no analog channel is read there (its analog inputs are on the expansion's own ADC)",
  })),
  {
    boards: /^arduino:mbed:(nanorp2040connect|pico|nicla_sense|nicla_voice)$/,
    file: 'arduino/hardware/mbed/9.9.9/libraries/Ethernet/examples/WebServer/WebServer.ino',
    line: 87,
    code: 'analog-pin',
    why: "the loop reads analogRead(0..5); these boards have 4 (RP2040) or 2 (Nicla) analog inputs, and mbed's analogRead(n) below A0 reads g_APinDescription[n + A0] (pinDefinitions.h analogPinToPinName): past the table it returns -1, on a pin without an ADC mbed::AnalogIn halts with 'pinmap not found for peripheral' (ArduinoCore-mbed cores/arduino/wiring_analog.cpp)",
  },
  // FastLED's examples are written for AVR; on the 1.0.x-based CircuitMess ESP32 core they fail.
  ...[
    [29, 'esp32-missing-api', "no header of this 1.0.x core (cores/esp32/*.h) declares analogWrite, nor does the Ringo library FastLED.h is in: 'analogWrite' was not declared in this scope"],
    [30, 'esp32-flash-pin', 'analogWrite(GREENPIN = 6): GPIO6 is the SPI flash clock on ESP32 modules; driving it stops the chip reading its program'],
    [59, 'esp32-flash-pin', 'pinMode(GREENPIN = 6, OUTPUT) takes GPIO6 from the SPI flash'],
  ].map(([line, code, why]) => ({ boards: /^cm:esp32:/, file: 'cm/hardware/esp32/1.7.5/libraries/Ringo/src/FastLED/examples/AnalogOutput/AnalogOutput.ino', line: line as number, code: code as string, why: why as string })),
  { boards: /^cm:esp32:/, file: 'cm/hardware/esp32/1.7.5/libraries/Ringo/src/FastLED/examples/NoisePlayground/NoisePlayground.ino', line: 58, code: 'analog-pin', why: "analogRead(3) means A3 on AVR; on the ESP32 it reads GPIO3 (RX), which has no ADC channel (adc_channel.h), so the 1.0.x core logs 'not ADC pin' and returns 0" },
  { boards: /^arduino:avr:(uno|leonardo)/, file: 'debian-examples/03.Analog/AnalogWriteMega/AnalogWriteMega.ino', line: 35, code: 'pwm-pin', why: 'the loop writes pins 2–13; on the Uno and Leonardo pins 2, 4, 7, 8, 12 (and 13 on the Uno) have no PWM: the example is for the Mega' },
  { boards: /^arduino:avr:(uno|leonardo)/, file: 'debian-examples/03.Analog/AnalogWriteMega/AnalogWriteMega.ino', line: 40, code: 'pwm-pin', why: 'the same loop, fading down' },
  { boards: /^arduino:avr:uno/, file: 'debian-examples/04.Communication/MultiSerial/MultiSerial.ino', line: 28, code: 'unknown-serial', why: "the Uno has no Serial1: 'Serial1' was not declared in this scope" },
  { boards: /^arduino:avr:uno/, file: 'debian-examples/04.Communication/SerialPassthrough/SerialPassthrough.ino', line: 29, code: 'unknown-serial', why: "the Uno has no Serial1: 'Serial1' was not declared in this scope" },
  ...[
    ['09.USB/Keyboard/KeyboardLogout/KeyboardLogout.ino', 32],
    ['09.USB/Keyboard/KeyboardMessage/KeyboardMessage.ino', 23],
    ['09.USB/Keyboard/KeyboardReprogram/KeyboardReprogram.ino', 28],
    ['09.USB/Keyboard/KeyboardSerial/KeyboardSerial.ino', 22],
    ['09.USB/KeyboardAndMouseControl/KeyboardAndMouseControl.ino', 24],
    ['09.USB/KeyboardAndMouseControl/KeyboardAndMouseControl.ino', 25],
    ['09.USB/Mouse/ButtonMouseControl/ButtonMouseControl.ino', 26],
    ['09.USB/Mouse/JoystickMouseControl/JoystickMouseControl.ino', 32],
    ['10.StarterKit_BasicKit/p05_ServoMoodIndicator/p05_ServoMoodIndicator.ino', 21],
    ['10.StarterKit_BasicKit/p11_CrystalBall/p11_CrystalBall.ino', 23],
    ['10.StarterKit_BasicKit/p12_KnockLock/p12_KnockLock.ino', 29],
    ['10.StarterKit_BasicKit/p13_TouchSensorLamp/p13_TouchSensorLamp.ino', 26],
  ].map(([file, line]) => ({ boards: AVR_THREE, file: `debian-examples/${file}`, line: line as number, code: 'include-unresolved', why: NO_LIBRARY })),
  // The SAMD platform's update libraries' examples use libraries the platform does not ship (MKRNB,
  // MKRGSM, WiFiNINA, Arduino_MKRMEM: arduino-cli lib install them); the fixture has no toolchain
  // folder, and Debian's newlib and arm-none-eabi headers say none of these is the C library's.
  ...[
    ['SBU/examples/SBU_LoadBinary/SBU_LoadBinary.ino', 1, 'MKRNB'],
    ['SBU/examples/SBU_LoadLZSS/SBU_LoadLZSS.ino', 1, 'MKRNB'],
    ['SFU/examples/SFU_LoadBinary/SFU_LoadBinary.ino', 5, 'Arduino_MKRMEM'],
    ['SNU/examples/Usage/Usage.ino', 39, 'WiFiNINA'],
    ['SSU/examples/SSU_HttpOta/SSU_HttpOta.ino', 41, 'MKRGSM'],
    ['SSU/examples/SSU_LZSS_HttpOta/SSU_LZSS_HttpOta.ino', 44, 'MKRGSM'],
    ['SSU/examples/SSU_LoadBinary/SSU_LoadBinary.ino', 6, 'MKRGSM'],
  ].map(([file, line, library]) => ({ boards: /^arduino:samd:/, file: `arduino/hardware/samd/1.8.14/libraries/${file}`, line: line as number, code: 'include-unresolved', why: `${library}.h is the ${library} library's, which is not installed: 'No such file or directory'` })),
  // `#include "Binary.h"` inside an array: the file is the user's (SFU_Usage says to make it with xxd); the example folder has none.
  ...[['SBU/examples/SBU_LoadBinary/SBU_LoadBinary.ino', 6], ['SBU/examples/SBU_LoadLZSS/SBU_LoadLZSS.ino', 8]].map(([file, line]) => ({ boards: /^arduino:samd:/, file: `arduino/hardware/samd/1.8.14/libraries/${file}`, line: line as number, code: 'include-unresolved', why: 'the example expects a Binary.h made from a .bin with xxd beside it; without it the include fails' })),
  // FastLED.h is indexed (boards/data/library-pins.json: FastLED/FastLED library.properties): a missing library is an ERROR on every board.
  ...[['AnalogOutput/AnalogOutput.ino', 1], ['Blink/Blink.ino', 1], ['ColorPalette/ColorPalette.ino', 1], ['ColorTemperature/ColorTemperature.ino', 1], ['Cylon/Cylon.ino', 1], ['DemoReel100/DemoReel100.ino', 1], ['DemoReelESP32/DemoReelESP32.ino', 1], ['Fire2012/Fire2012.ino', 1], ['Fire2012WithPalette/Fire2012WithPalette.ino', 1], ['FirstLight/FirstLight.ino', 6], ['Multiple/ArrayOfLedArrays/ArrayOfLedArrays.ino', 6], ['Multiple/MirroringSample/MirroringSample.ino', 5], ['Multiple/MultiArrays/MultiArrays.ino', 5], ['Multiple/MultipleStripsInOneArray/MultipleStripsInOneArray.ino', 5], ['Multiple/OctoWS2811Demo/OctoWS2811Demo.ino', 3], ['Multiple/ParallelOutputDemo/ParallelOutputDemo.ino', 1], ['Noise/Noise.ino', 1], ['NoisePlayground/NoisePlayground.ino', 1], ['NoisePlusPalette/NoisePlusPalette.ino', 1], ['Ports/PJRCSpectrumAnalyzer/PJRCSpectrumAnalyzer.ino', 16], ['RGBCalibrate/RGBCalibrate.ino', 1], ['RGBSetDemo/RGBSetDemo.ino', 1], ['SmartMatrix/SmartMatrix.ino', 2], ['XYMatrix/XYMatrix.ino', 1]].map(([file, line]) => ({
    boards: /^cm:esp32:/,
    file: `cm/hardware/esp32/1.7.5/libraries/Ringo/src/FastLED/examples/${file}`,
    line: line as number,
    code: 'include-unresolved',
    why: "#include <FastLED.h>: these examples sit inside the Ringo library, whose source root (src/) has only MAKERphone.h; FastLED.h is in src/FastLED/, which the library resolver never searches for a header, and no FastLED library is installed: 'FastLED.h: No such file or directory'",
  })),
  // WiFiNINA.h is indexed (arduino-libraries/WiFiNINA library.properties); the mbed platform does not bundle it.
  ...[['MLC/examples/RP2040_DataLogger_FIFO/RP2040_DataLogger_FIFO.ino', 17, /^arduino:mbed:/], ['MLC/examples/RP2040_MLC_Motion_Intensity/RP2040_MLC_Motion_Intensity.ino', 8, /^arduino:mbed:/], ['Scheduler/examples/MultipleBlinks/MultipleBlinks.ino', 32, /^arduino:mbed:nanorp2040connect$/]].map(([file, line, boards]) => ({
    boards: boards as RegExp,
    file: `arduino/hardware/mbed/9.9.9/libraries/${file}`,
    line: line as number,
    code: 'include-unresolved',
    why: "WiFiNINA.h is the WiFiNINA library's (arduino-cli lib install \"WiFiNINA\"); no mbed platform library provides it: 'No such file or directory'",
  })),
  // arduino-esp32 defines A<n> only in the variant: 11 of the 13 CircuitMess boards' variants define none (only d32's d32_core.h does).
  ...[['ESP32/examples/AnalogOut/ledcWrite_RGB/ledcWrite_RGB.ino', 12], ['ESP32/examples/AnalogOut/ledcWrite_RGB/ledcWrite_RGB.ino', 13], ['ESP32/examples/AnalogOut/ledcWrite_RGB/ledcWrite_RGB.ino', 14], ['ESP32/examples/FreeRTOS/FreeRTOS.ino', 92], ['Ringo/src/FastLED/examples/Ports/PJRCSpectrumAnalyzer/PJRCSpectrumAnalyzer.ino', 35], ['WebServer/examples/FSBrowser/FSBrowser.ino', 290]].map(([file, line]) => ({
    boards: /^cm:esp32:(?!ringo$|spencer$)/,
    file: `cm/hardware/esp32/1.7.5/libraries/${file}`,
    line: line as number,
    code: 'pin-name-undefined',
    why: "the board's variant folder (pins_arduino.h) defines no A<n> and cores/esp32 none either: 'A0' (A3, A4, A5, A18) was not declared in this scope",
  })),
  // Servo's examples attach pin 9; the ESP32's GPIO9 is wired to the module's SPI flash (and Servo.h #errors on ESP32 anyway).
  ...['Sweep/Sweep.ino', 'Knob/Knob.ino'].map((file) => ({
    boards: /^cm:esp32:ringo$/,
    file: `sketchbook/libraries/Servo/examples/${file}`,
    line: 18,
    code: 'esp32-flash-pin',
    why: 'myservo.attach(9): Servo.h declares attach(int pin); GPIO9 is the SPI flash data line (SD2) on ESP32 modules: setting it up as an output stops the chip reading its program',
  })),
  // Headers the library index names (boards/data/library-pins.json, each from a library.properties name= at a
  // cited commit and its arduino/library-registry line), missing where these examples run: ERRORs on every board.
  // SerialFlash 0.5 and HttpClient 2.2.0 sit inside the CircuitMess Wire and Ringo libraries (Wire/SerialFlash-0.5,
  // Ringo/src/utility/HttpClient), folders the library resolver never searches for a header, and the platform has
  // no Ethernet library.
  ...[['Wire/SerialFlash-0.5/examples/RawHardwareTest/RawHardwareTest.ino', 21, 'SerialFlash'], ['Wire/SerialFlash-0.5/examples/ReadBenchmark/ReadBenchmark.ino', 1, 'SerialFlash'], ['Wire/SerialFlash-0.5/examples/EraseEverything/EraseEverything.ino', 1, 'SerialFlash'], ['Wire/SerialFlash-0.5/examples/CopyFromSerial/CopyFromSerial.ino', 60, 'SerialFlash'], ['Wire/SerialFlash-0.5/examples/ListFiles/ListFiles.ino', 1, 'SerialFlash'], ['Wire/SerialFlash-0.5/examples/CopyFromSD/CopyFromSD.ino', 1, 'SerialFlash'], ['Wire/SerialFlash-0.5/examples/MP3Player/MP3Player.ino', 12, 'SerialFlash'], ['Ringo/src/utility/HttpClient/examples/SimpleHttpExample/SimpleHttpExample.ino', 9, 'HttpClient'], ['Ringo/src/utility/HttpClient/examples/SimpleHttpExample/SimpleHttpExample.ino', 10, 'Ethernet']].map(([file, line, library]) => ({
    boards: /^cm:esp32:/,
    file: `cm/hardware/esp32/1.7.5/libraries/${file}`,
    line: line as number,
    code: 'include-unresolved',
    why: `${library}.h is the ${library} library's (arduino-cli lib install "${library}"); no library root of the CircuitMess platform provides it: '${library}.h: No such file or directory'`,
  })),
  // ArduinoBLE.h is the ArduinoBLE library's; the mbed platform does not bundle it.
  ...[['NDP/examples/BLExaDemo/BLExaDemo.ino', 2], ['Nicla_System/examples/NiclaSenseME_BatteryStatus/NiclaSenseME_BatteryStatus.ino', 23]].map(([file, line]) => ({
    boards: /^arduino:mbed:/,
    file: `arduino/hardware/mbed/9.9.9/libraries/${file}`,
    line: line as number,
    code: 'include-unresolved',
    why: "ArduinoBLE.h is the ArduinoBLE library's (arduino-cli lib install \"ArduinoBLE\"); no mbed platform library provides it: 'ArduinoBLE.h: No such file or directory'",
  })),
];
