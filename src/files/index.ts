// `cashback-engine/files`: the file readers and `replayFiles`. A separate entry point, so that
// importing `cashback-engine` never loads the CSV, Parquet and gzip code (docs/replay.md).
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
