// cashback-engine: an embeddable cashback rules engine. Exact with money (decimal.js),
// deterministic (time and ids are injected), fast at high volume, and with one coded error for
// every transaction it does not pay. (No @packageDocumentation: tsup's d.ts bundling moves it.)

export * from './core/index.js';
export * from './engine/index.js';
export * from './matching/index.js';
export * from './model/index.js';
export * from './rules/index.js';
export * from './store/index.js';
