/**
 * Why a file could not be opened or read, in words, from a Node file-system error.
 * @param err - what the file-system call threw
 * @returns the reason, such as `no such file` or `permission denied`
 */
export function fileFailure(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return err instanceof Error ? err.message : String(err);
}
