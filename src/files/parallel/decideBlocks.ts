import type { Screener } from '../../core/replay/Screener.js';
import type { Block, Part } from './blocks.js';
import { type BlockMarks, markBlock } from './markBlock.js';
import type { DecidedPart, Partition } from './Partition.js';

/** Blocks sent ahead of the one whose outcomes are awaited. */
const IN_FLIGHT = 1;

/** A block decided by every partition, its outcomes not yet made. */
export interface DecidedBlock {
  readonly block: Block;
  readonly marks: BlockMarks;
  readonly decided: readonly DecidedPart[];
}

/**
 * Every block decided, in file order. A block's screening is sent while earlier ones are still
 * being decided, so no thread waits on a round trip; few are in flight, so that items and
 * outcomes die young.
 * @param pool - the partitions
 * @param blocks - the blocks, in file order
 * @param screener - the replay's screener
 * @param skip - reports a malformed line
 * @returns the decided blocks
 */
export async function* decideBlocks(
  pool: readonly Partition[],
  blocks: AsyncIterable<Block>,
  screener: Screener,
  skip: (line: number, reason: string) => void,
): AsyncGenerator<DecidedBlock> {
  const next = { index: 0 };
  let n = 0;
  // The error of a block that could not be marked: no later block is marked (nor its malformed
  // lines reported) once one failed.
  let failure: { error: unknown } | undefined;
  const decideBlock = async (block: Block): Promise<DecidedBlock> => {
    const b = n++;
    const screened = await Promise.all(
      pool.map((partition, p) => partition.screen(b, block.parts[p] as Part)),
    );
    if (failure !== undefined) throw failure.error;
    // Screenings come back in the order sent, so blocks are marked in file order.
    let marks: BlockMarks;
    try {
      marks = markBlock(block, screened, screener, next, skip);
    } catch (error) {
      failure = { error };
      throw error;
    }
    const decided = await Promise.all(
      pool.map((partition, p) =>
        partition.decide(b, marks.duplicates[p] as Int32Array, marks.indices[p] as Int32Array),
      ),
    );
    return { block, marks, decided };
  };
  const inflight: Promise<DecidedBlock>[] = [];
  for await (const block of blocks) {
    const decided = decideBlock(block);
    decided.catch(() => {}); // awaited in order below; this only keeps it from being unhandled
    inflight.push(decided);
    while (inflight.length > IN_FLIGHT) yield await (inflight.shift() as Promise<DecidedBlock>);
  }
  while (inflight.length > 0) yield await (inflight.shift() as Promise<DecidedBlock>);
}
