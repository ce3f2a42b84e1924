/** Engine options the properties draw: zones far apart, scales 0–4, every rounding mode. */
import fc from 'fast-check';
import type { RoundingName } from '../../src/index.js';

export const ZONES = [
  'UTC',
  'Pacific/Kiritimati',
  'America/Los_Angeles',
  'Asia/Kathmandu',
  'Europe/Dublin',
  'Australia/Lord_Howe',
] as const;

export const ROUNDINGS: readonly RoundingName[] = [
  'half-up',
  'half-even',
  'half-down',
  'up',
  'down',
  'ceil',
  'floor',
];

export interface DrawnOptions {
  readonly timeZone: string;
  readonly scale: number;
  readonly rounding: RoundingName;
}

export const optionsArbitrary: fc.Arbitrary<DrawnOptions> = fc.record({
  timeZone: fc.constantFrom(...ZONES),
  scale: fc.integer({ min: 0, max: 4 }),
  rounding: fc.constantFrom(...ROUNDINGS),
});
