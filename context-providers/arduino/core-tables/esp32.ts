// The esp32 core's pin tables (filled in by its reader; undefined until then).
import type { CoreTableReader } from './core-facts.js';

export const readEsp32Tables: CoreTableReader = () => undefined;
