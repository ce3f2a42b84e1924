/** An inclusive age range; `max` is `Infinity` for an open-ended `A+` label. @public */
export interface AgeBand {
  /** Lowest age, inclusive. */
  readonly min: number;
  /** Highest age, inclusive. */
  readonly max: number;
}

const CLOSED = /^(\d{1,3})\s*-\s*(\d{1,3})$/;
const OPEN = /^(\d{1,3})\s*\+$/;

/**
 * Reads an age label: `A-B` (inclusive) or `A+` (open-ended).
 * @param label - e.g. `18-25` or `65+`
 * @returns the band, or `undefined` when the label is unreadable or A is greater than B
 * @public
 */
export function parseAgeBand(label: string): AgeBand | undefined {
  const text = label.trim();
  const closed = CLOSED.exec(text);
  if (closed !== null) {
    const min = Number(closed[1]);
    const max = Number(closed[2]);
    return min <= max ? { min, max } : undefined;
  }
  const open = OPEN.exec(text);
  return open === null ? undefined : { min: Number(open[1]), max: Number.POSITIVE_INFINITY };
}

/** `true` when `age` falls in one of the bands. */
export function inAnyBand(bands: readonly AgeBand[], age: number): boolean {
  for (const b of bands) if (age >= b.min && age <= b.max) return true;
  return false;
}
