import type { Decorator } from './Decorator.js';
import { everyFactDecorator } from './everyFact.js';
import { everyValueDecorator } from './everyValue.js';
import { notDecorator } from './not.js';
import { someFactDecorator } from './someFact.js';
import { someValueDecorator } from './someValue.js';
import { swapDecorator } from './swap.js';

/** json-rules-engine 7's default operator decorators, by name. */
export const DECORATORS: ReadonlyMap<string, Decorator> = new Map(
  [
    someFactDecorator,
    someValueDecorator,
    everyFactDecorator,
    everyValueDecorator,
    swapDecorator,
    notDecorator,
  ].map((decorator) => [decorator.name, decorator]),
);
