// The board commands' names and one-line help, apart from their code: the command line loads
// board.ts only when one of them is run.
export const BOARD_COMMANDS: ReadonlyArray<readonly [name: string, description: string]> = [
  ['compile', 'compile a sketch: boardbridge compile [sketch] [--fqbn F]'],
  ['upload', 'compile and upload: boardbridge upload [sketch] [--port P] [--fqbn F]'],
  ['monitor', 'serial monitor: boardbridge monitor --port P [--baud B] [--for 5s] [--until REGEX] [--timestamps]'],
  ['ports', 'list serial ports and the boards they identify as'],
  ['simulate', 'run the sketch on a simulated board (avr8js), with the parts of its diagram.json: boardbridge simulate [sketch] [--fqbn F] [--for 5s] [--pin A0=512] [--scenario FILE.test.yaml] [--diagram FILE] [--vcd out.vcd] [--json]'],
  ['sim', 'a simulation steered step by step: boardbridge sim start [sketch] | run [--for 1s] [--until REGEX] | serial | write TEXT | pin PART:PIN | control PART CONTROL VALUE | parts | restart | stop'],
  ['build', 'build an MPLAB project: boardbridge build [project.X | VS Code project folder] [--conf C] [--production]'],
  ['program', 'program the device of an MPLAB project with ipecmd'],
  ['run-script', 'run a MicroPython script on a camera: boardbridge run-script FILE --port P'],
  ['stop-script', 'stop the running script: boardbridge stop-script --port P'],
  ['camera-info', 'firmware, arch and sensor of a camera: boardbridge camera-info --port P'],
];
