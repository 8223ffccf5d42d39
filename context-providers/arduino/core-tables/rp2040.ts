// The rp2040 core's pin tables (filled in by its reader; undefined until then).
import type { CoreTableReader } from './core-facts.js';

export const readRp2040Tables: CoreTableReader = () => undefined;
