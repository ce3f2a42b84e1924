import { describe, test } from 'vitest';
import { createMemoryStore } from '../../src/store/index.js';
import { storeConformance } from '../../src/testing/index.js';

storeConformance({ name: 'memory store', createStore: createMemoryStore, describe, test });
