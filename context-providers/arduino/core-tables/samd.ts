// The samd core's pin tables (filled in by its reader; undefined until then).
import type { CoreTableReader } from './core-facts.js';

export const readSamdTables: CoreTableReader = () => undefined;
