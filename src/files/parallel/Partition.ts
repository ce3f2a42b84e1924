import type { Part } from './blocks.js';
import type { Screening } from './PartitionReplay.js';
import type { OutcomeSource } from './wireOutcomes.js';

/** A partition's part of a block, decided: its outcomes to take in order. */
export interface DecidedPart {
  readonly outcomes: OutcomeSource;
  /** Purchases the partition's session holds now. */
  readonly purchases: number;
}

/**
 * A partition of `cashback replay --workers N` as the reading thread drives it, in this thread
 * (`LocalPartition`) or in a worker thread (`ThreadPartition`).
 */
export interface Partition {
  /** Parses and classifies the partition's part of a block. */
  screen(block: number, part: Part): Promise<Screening>;
  /** Decides it, leaving out the duplicates the screener found. */
  decide(block: number, duplicates: Int32Array, indices: Int32Array): Promise<DecidedPart>;
  /** Ends the partition (its thread, if any). */
  stop(): void;
}
