// The bounds of one simulation, the same whichever way it is run (CLI, terminal, MCP): what a
// run may take and what its result and files may hold, so no argument makes the bridge grow
// without end. A face may ask for less (the MCP tool lists fewer changes for a model's context).
export const SIMULATION_LIMITS = {
  /** Simulated time of one run; longer runs are better split. */
  simulatedMs: 600_000,
  /** Pin changes one result lists (the figures count them all); the whole record goes to --vcd. */
  traceChanges: 100_000,
  /** Pin changes listed when the caller does not say. */
  defaultTraceChanges: 1000,
  /** Changes a VCD file holds before it is closed with a note: PWM on a few pins for minutes stays under it. */
  vcdChanges: 2_000_000,
  /** Serial output a result keeps (the byte count counts it all). */
  serialChars: 64 * 1024,
} as const;
