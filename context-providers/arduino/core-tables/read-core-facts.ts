// Picks the reader of the board's core; the first that recognises the board answers.
import type { ResolvedBoard } from '../../../platform/arduino/resolve.js';
import type { VariantHeader } from '../variant-header.js';
import type { CoreFacts, CoreTableReader } from './core-facts.js';
import { readEsp32Tables } from './esp32.js';
import { readMbedTables } from './mbed.js';
import { readRenesasTables } from './renesas.js';
import { readRp2040Tables } from './rp2040.js';
import { readSamdTables } from './samd.js';
import { readStm32Tables } from './stm32.js';

const READERS: CoreTableReader[] = [readRenesasTables, readSamdTables, readMbedTables, readRp2040Tables, readStm32Tables, readEsp32Tables];

export function readCoreFacts(board: ResolvedBoard, variant: VariantHeader): CoreFacts | undefined {
  for (const read of READERS) {
    const facts = read(board, variant);
    if (facts) return facts;
  }
  return undefined;
}
