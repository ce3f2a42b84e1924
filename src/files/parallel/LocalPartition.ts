import type { Part } from './blocks.js';
import type { DecidedPart, Partition } from './Partition.js';
import { type PartitionInit, PartitionReplay, type Screening } from './PartitionReplay.js';
import { OutcomeList } from './wireOutcomes.js';

/** Partition 0, replayed in the reading thread: no copy of its items or outcomes. */
export class LocalPartition implements Partition {
  private readonly replay: PartitionReplay;

  /** @param init - offers, the partition's customers and history, options */
  constructor(init: PartitionInit) {
    this.replay = new PartitionReplay(init);
  }

  async screen(block: number, part: Part): Promise<Screening> {
    return this.replay.screen(block, part);
  }

  async decide(block: number, duplicates: Int32Array, indices: Int32Array): Promise<DecidedPart> {
    const outcomes = new OutcomeList(this.replay.decide(block, duplicates, indices));
    return { outcomes, purchases: this.replay.purchases() };
  }

  stop(): void {}
}
