import { readFileSync } from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { fileFailure } from '../files/fileFailure.js';
import type { ReadLimit, ReadLimits } from '../files/index.js';
import { DEFAULT_READ_LIMITS, resolveReadLimits } from '../files/limits.js';
import { resolveOptions } from '../model/options.js';

/**
 * A problem with the command line, the environment or an input file. The command prints its
 * message on one line and exits with code 2.
 */
export class UsageError extends Error {
  /** @param message - what is wrong and, where it helps, how to fix it */
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A partner as the partners file gives it; the key is hashed at start and never shown. */
export interface PartnerFileEntry {
  /** The application id: the partner's tenant key. */
  readonly application_id: string;
  /** The application key, in clear; only its hash is kept. */
  readonly application_key: string;
  /** Where the partner's webhook events go. */
  readonly webhook_url?: string;
  /**
   * Secret that signs the partner's webhook deliveries (`whsec_…`), or two during a rotation (the
   * new one first): docs/webhooks.md.
   */
  readonly webhook_secret?: string | readonly [string, string];
}

const PARTNER_FIELDS = ['application_id', 'application_key', 'webhook_url', 'webhook_secret'];

/** `line L, column C` of a character offset. */
function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

/**
 * Reads and parses a JSON file, a leading UTF-8 byte-order mark allowed. A syntax error is reported by line and column only: the parser's
 * own message may quote the file, and a partners file holds application keys.
 * @param path - the file, as given on the command line
 * @param what - what the file holds (`offers`, `partners`), for messages
 * @returns the parsed JSON
 * @throws UsageError when the file cannot be read or is not valid JSON
 */
export function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read the ${what} file ${path}: ${fileFailure(err)}`);
  }
  // A byte-order mark some editors write first is not part of the JSON.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return JSON.parse(text);
  } catch (err) {
    const position = /at position (\d+)/.exec(err instanceof Error ? err.message : '')?.[1];
    const where = position === undefined ? '' : ` (${lineAndColumn(text, Number(position))})`;
    throw new UsageError(`the ${what} file ${path} is not valid JSON${where}`);
  }
}

/** `an object`, `a string`, … for messages about a value of the wrong type. */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

const nonEmptyString = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0;

/**
 * Checks the contents of a partners file: a non-empty array of
 * `{ application_id, application_key, webhook_url?, webhook_secret? }` with distinct application
 * ids. Messages name a partner by its position and id, never by its key.
 * @param value - the parsed file
 * @param path - the file, for messages
 * @returns the partners, in file order
 * @throws UsageError naming the first problem
 */
export function parsePartnersFile(value: unknown, path: string): PartnerFileEntry[] {
  const fail = (message: string): never => {
    throw new UsageError(`partners file ${path}: ${message}`);
  };
  if (!Array.isArray(value)) {
    return fail(`must hold a JSON array of partners, got ${typeOf(value)}`);
  }
  if (value.length === 0) fail('lists no partners; without --partners a demo partner is made');
  const seen = new Map<string, number>();
  return value.map((item: unknown, index): PartnerFileEntry => {
    const n = index + 1;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      return fail(`partner #${n} must be an object, got ${typeOf(item)}`);
    }
    const entry = item as Record<string, unknown>;
    const id = entry.application_id;
    if (!nonEmptyString(id)) {
      return fail(`partner #${n} needs an application_id (a non-empty string)`);
    }
    const name = `partner #${n} ('${id}')`;
    const first = seen.get(id);
    if (first !== undefined) fail(`application_id '${id}' is given twice (#${first} and #${n})`);
    seen.set(id, n);
    const unknown = Object.keys(entry).find((k) => !PARTNER_FIELDS.includes(k));
    if (unknown !== undefined) {
      fail(
        `${name} has an unknown field '${unknown}'; the fields are ${PARTNER_FIELDS.join(', ')}`,
      );
    }
    if (!nonEmptyString(entry.application_key)) {
      fail(`${name} needs an application_key (a non-empty string)`);
    }
    const url = entry.webhook_url;
    if (url !== undefined && (typeof url !== 'string' || !/^https?:$/.test(urlProtocol(url)))) {
      fail(`${name}: webhook_url must be an http or https URL`);
    }
    const secret = entry.webhook_secret;
    const rotation =
      Array.isArray(secret) && secret.length === 2 && secret.every((s) => nonEmptyString(s));
    if (secret !== undefined && !nonEmptyString(secret) && !rotation) {
      fail(
        `${name}: webhook_secret must be one whsec_… string, or an array of two during a rotation`,
      );
    }
    if ((url === undefined) !== (secret === undefined)) {
      fail(`${name}: webhook_url and webhook_secret go together: give both or neither`);
    }
    return {
      application_id: id,
      application_key: entry.application_key as string,
      ...(url === undefined ? {} : { webhook_url: url as string }),
      ...(secret === undefined
        ? {}
        : { webhook_secret: secret as string | readonly [string, string] }),
    };
  });
}

function urlProtocol(value: string): string {
  try {
    return new URL(value).protocol;
  } catch {
    return '';
  }
}

/**
 * Parses `--port`: a whole number from 0 to 65535 (0 picks a free port).
 * @param value - the option's text
 * @returns the port
 * @throws InvalidArgumentError (commander's) for anything else
 */
export function parsePort(value: string): number {
  const port = /^[0-9]{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new InvalidArgumentError('The port must be a whole number from 0 to 65535.');
  }
  return port;
}

/**
 * Parses `--token-ttl`: a whole number of seconds, at least 1.
 * @param value - the option's text
 * @returns the lifetime in seconds
 * @throws InvalidArgumentError (commander's) for anything else
 */
export function parseTokenTtl(value: string): number {
  const seconds = /^[0-9]{1,9}$/.test(value) ? Number(value) : 0;
  if (seconds < 1) {
    throw new InvalidArgumentError('The token lifetime must be a whole number of seconds, ≥ 1.');
  }
  return seconds;
}

/**
 * Parses `--time-zone`: an IANA zone the runtime knows.
 * @param value - the option's text
 * @returns the zone
 * @throws InvalidArgumentError (commander's) for an unknown zone
 */
export function parseTimeZone(value: string): string {
  try {
    return resolveOptions({ timeZone: value }).timeZone;
  } catch {
    throw new InvalidArgumentError('Not a time zone this Node.js knows (e.g. Europe/Paris).');
  }
}

/** The flag of each read limit (docs/cli.md): the limit's name, in kebab case. */
export const READ_LIMIT_FLAGS: Readonly<Record<ReadLimit, string>> = {
  maxLineBytes: '--max-line-bytes',
  maxFieldBytes: '--max-field-bytes',
  maxValueBytes: '--max-value-bytes',
  maxDepth: '--max-depth',
};

const READ_LIMIT_HELP: Readonly<Record<ReadLimit, string>> = {
  maxLineBytes: 'longest NDJSON line or CSV row, in bytes',
  maxFieldBytes: 'longest CSV field, in bytes',
  maxValueBytes: 'longest item of a JSON array, in bytes',
  maxDepth: 'deepest nesting of JSON arrays and objects',
};

/**
 * Adds the read-limit flags (`--max-line-bytes`, `--max-field-bytes`, `--max-value-bytes`,
 * `--max-depth`) to a command that reads record files. Each takes a whole number, checked as the
 * readers check their `limits`.
 * @param command - the command
 * @returns the command
 */
export function addReadLimitOptions(command: Command): Command {
  for (const [limit, flag] of Object.entries(READ_LIMIT_FLAGS) as [ReadLimit, string][]) {
    command.addOption(
      new Option(
        `${flag} <${limit === 'maxDepth' ? 'levels' : 'bytes'}>`,
        `${READ_LIMIT_HELP[limit]} (default ${DEFAULT_READ_LIMITS[limit]})`,
      ).argParser((value: string) => {
        try {
          const given = /^[0-9]{1,10}$/.test(value) ? Number(value) : value;
          return resolveReadLimits({ [limit]: given as number })[limit];
        } catch (err) {
          throw new InvalidArgumentError(`${(err as Error).message}.`);
        }
      }),
    );
  }
  return command;
}

/**
 * The read limits a command line gives.
 * @param options - the command's options, as commander names them
 * @returns the limits given, the others left to their defaults
 */
export function readLimitsOf(options: Partial<Record<ReadLimit, number>>): ReadLimits {
  const limits: Partial<Record<ReadLimit, number>> = {};
  for (const limit of Object.keys(READ_LIMIT_FLAGS) as ReadLimit[]) {
    const value = options[limit];
    if (value !== undefined) limits[limit] = value;
  }
  return limits;
}
