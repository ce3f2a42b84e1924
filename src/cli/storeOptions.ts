import { type Command, Option } from 'commander';
import { DATABASE_URL_ENV } from './storeChoice.js';

/**
 * `--data-dir`, shared by `serve` and `migrate`.
 * @param what - the option's help text
 * @returns the option, from CASHBACK_DATA_DIR when not given, `.cashback` by default
 */
export const dataDirOption = (what: string): Option =>
  new Option('--data-dir <dir>', what).env('CASHBACK_DATA_DIR').default('.cashback');

/**
 * `--database-url`, shared by `serve` and `migrate`.
 * @param what - the option's help text
 * @returns the option, from the environment variable when not given
 */
export const databaseUrlOption = (what: string): Option =>
  new Option('--database-url <url>', what).env(DATABASE_URL_ENV);

/**
 * Where `--database-url` came from.
 * @param command - the command that parsed it
 * @returns `cli`, `env`, or undefined when it was not given
 */
export const urlSource = (command: Command): string | undefined =>
  command.getOptionValueSource('databaseUrl');
