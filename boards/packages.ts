// The packages a board operation needs only when it runs a tool or opens a port, loaded the
// first time one does. Imported at start-up they cost every command that builds the board
// services (`boardbridge acp` before it can answer an editor's initialize, `chat`, `run`) their
// files: execa's some 150, serialport's with its native binding and `debug`, whether or not
// the session ever touches a board. Node keeps a module once loaded: each loads once per process.

/** execa's `execa`, loaded on the first call. */
export async function loadExeca(): Promise<typeof import('execa').execa> {
  return (await import('execa')).execa;
}

/** serialport's `SerialPort` (and its `binding`), loaded on the first call. */
export async function loadSerialPort(): Promise<typeof import('serialport').SerialPort> {
  return (await import('serialport')).SerialPort;
}
