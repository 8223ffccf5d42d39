export type { CoreFacts, CorePin, CoreSerialPort, CoreSketchView, CoreTableReader, Knowledge, SketchCall } from './core-facts.js';
export { readCoreFacts } from './read-core-facts.js';
