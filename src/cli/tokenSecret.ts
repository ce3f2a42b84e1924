import { randomBytes } from 'node:crypto';
import {
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { UsageError } from './inputs.js';

/** Name of the environment variable that gives the token secret. */
export const TOKEN_SECRET_ENV = 'CASHBACK_TOKEN_SECRET';

/** Name of the file in the data directory that keeps a generated token secret. */
const TOKEN_SECRET_FILE = 'token-secret';

/** HS256 wants a key of at least 256 bits. */
const MIN_BYTES = 32;

/** Where the token secret came from, and the secret. */
export interface TokenSecret {
  /** The secret that signs tokens. */
  readonly secret: string;
  /** `env`: from {@link TOKEN_SECRET_ENV}; `file`: read from `path`; `created`: written to `path`. */
  readonly source: 'env' | 'file' | 'created';
  /** The secret's file, unless it came from the environment. */
  readonly path?: string;
  /** Something the operator should know (a file others can read), if anything. */
  readonly warning?: string;
}

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

const errorCode = (err: unknown): string | undefined =>
  (err as NodeJS.ErrnoException | undefined)?.code;

/** A file-system error in a few words: its code when it has one. */
const describe = (err: unknown): string =>
  errorCode(err) ?? (err instanceof Error ? err.message : String(err));

/**
 * Reads a secret file, or undefined when there is none. Surrounding whitespace (an editor's
 * newline) is not part of the secret.
 */
function readSecretFile(path: string): TokenSecret | undefined {
  let secret: string;
  let mode: number;
  try {
    secret = readFileSync(path, 'utf8').trim();
    mode = statSync(path).mode;
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return undefined;
    throw new UsageError(`cannot read the token secret file ${path}: ${describe(err)}`);
  }
  if (byteLength(secret) < MIN_BYTES) {
    throw new UsageError(
      `the token secret file ${path} holds ${byteLength(secret)} bytes, at least ${MIN_BYTES} are needed; delete it and a new one is made at the next start`,
    );
  }
  const open = (mode & 0o077) !== 0;
  return {
    secret,
    source: 'file',
    path,
    ...(open ? { warning: `${path} can be read by other users: chmod 600 it` } : {}),
  };
}

/**
 * The secret that signs tokens: {@link TOKEN_SECRET_ENV} when set (at least 32 bytes), else the
 * `token-secret` file of the data directory, made on first use with 32 random bytes in hex and
 * mode 0600 (the directory 0700). The file is written under a temporary name and linked into
 * place, so it is never seen half-written and two starts at once agree on one secret.
 * @param fromEnv - the environment variable's value, if set
 * @param dataDir - the data directory
 * @returns the secret and where it came from
 * @throws UsageError when the variable is too short or the file cannot be read or written
 */
export function resolveTokenSecret(fromEnv: string | undefined, dataDir: string): TokenSecret {
  if (fromEnv !== undefined) {
    if (byteLength(fromEnv) < MIN_BYTES) {
      throw new UsageError(
        `${TOKEN_SECRET_ENV} has ${byteLength(fromEnv)} bytes, at least ${MIN_BYTES} are needed (for example: openssl rand -hex 32); unset it to use a generated secret kept in the data directory`,
      );
    }
    return { secret: fromEnv, source: 'env' };
  }
  const path = join(dataDir, TOKEN_SECRET_FILE);
  const existing = readSecretFile(path);
  if (existing !== undefined) return existing;
  const secret = randomBytes(MIN_BYTES).toString('hex');
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    rmSync(temporary, { force: true }); // left by a crashed start with the same pid
    writeFileSync(temporary, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(temporary, path);
    } catch (err) {
      // Another start made it first: use that one.
      if (errorCode(err) === 'EEXIST') return readSecretFile(path) as TokenSecret;
      // A file system without hard links: a rename is atomic too.
      renameSync(temporary, path);
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot write the token secret to ${path}: ${describe(err)}`);
  } finally {
    rmSync(temporary, { force: true });
  }
  return { secret, source: 'created', path };
}
