// `cashback replay --workers N` lives in src/files/parallel/; this path is where the command
// imports it from.
export { replayInWorkers } from './parallel/replayInWorkers.js';
