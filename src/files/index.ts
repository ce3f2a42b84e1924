// `cashback-engine/files`: the file readers and `replayFiles`. A separate entry point, so that
// importing `cashback-engine` never loads the CSV, Parquet and gzip code (docs/replay.md).

// Also exported here: the types of `cashback-engine` that this entry's signatures name (what
// `replayFiles` returns, what `backtestReport` takes, and what those reach), so that a caller
// names them from the entry it calls.
// The payment ledger (docs/concepts.md, The lifecycle of a payment): the types its signatures name.
export type {
  Adjustment,
  BacktestBudgets,
  BacktestCharts,
  BacktestFigures,
  BacktestHeldBack,
  BacktestLiability,
  BacktestResult,
  BacktestRow,
  BudgetBurn,
  BudgetDay,
  Clawback,
  CollectedReplay,
  FundingCheck,
  HeldBackFigures,
  LiabilityFigure,
  LiabilitySummary,
  NetFigures,
  OfferTotals,
  Outcome,
  Payment,
  ReplayResult,
  ReplayRetained,
  ReplaySessionOptions,
  ReplayStream,
  ReplayStreamOptions,
  ReplaySummary,
  ReturnError,
  ReturnOutcome,
  ReturnsSummary,
  TransactionError,
  VegaLiteSpec,
} from '../core/index.js';
export type {
  Cashback,
  FundingPeriod,
} from '../matching/index.js';
export type { LateReturns } from '../model/index.js';
export {
  type ActivationErrorCode,
  type CoreOptions,
  type CustomerErrorCode,
  ERROR_CODES,
  type ErrorCode,
  type ItemError,
  Money,
  type MoneyValue,
  type ReturnErrorCode,
  type RoundingName,
  type TransactionErrorCode,
} from '../model/index.js';
export type { OperatorRegistry } from '../rules/index.js';
export { type ReadLimit, ReadLimitError, type ReadLimits } from './limits.js';
export {
  type FileFormat,
  FileReadError,
  type FileRecord,
  fileSize,
  formatOf,
  type MalformedRecord,
  type ReadRecordsOptions,
  readAllRecords,
  readRecords,
} from './readRecords.js';
export {
  type FileReplay,
  MalformedRecordError,
  type ReplayFilePaths,
  type ReplayFilesOptions,
  replayFiles,
} from './replayFiles.js';
export { backtestReport } from './report.js';
