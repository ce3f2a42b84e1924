// Flat rows (CSV, Parquet) with dotted column names as nested records: `merchant.name` → merchant:
// { name }. Each column name is split once, not once per row: a file has a handful of columns and
// millions of rows.

/** Where each column's value goes in a record, in column order. */
export type ColumnPaths = readonly (readonly string[])[];

/**
 * The path of every column of a header.
 * @param header - the column names
 * @returns each name split at its dots
 */
export function columnPaths(header: readonly string[]): ColumnPaths {
  return header.map((column) => column.split('.'));
}

/** Sets `path` of `target` to `value`, making the objects on the way. */
function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  const last = path.length - 1;
  for (let i = 0; i < last; i++) {
    const step = path[i] as string;
    const next = node[step];
    if (typeof next === 'object' && next !== null) node = next as Record<string, unknown>;
    else {
      const child: Record<string, unknown> = Object.create(null);
      node[step] = child;
      node = child;
    }
  }
  node[path[last] as string] = value;
}

/**
 * A row's cells as a nested record. A cell left empty (or null) is left out; a bigint (an INT64
 * Parquet column) becomes its decimal text, which the engine reads as it reads numbers. Records
 * have no prototype, so that a column named `__proto__.x` or `constructor.x` is a field like any
 * other and never reaches `Object.prototype`.
 * @param paths - the columns' paths
 * @param cell - the cell of column `i`
 * @returns the record
 */
export function nestRow(paths: ColumnPaths, cell: (i: number) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (let i = 0; i < paths.length; i++) {
    const value = cell(i);
    if (value === '' || value === null || value === undefined) continue;
    setPath(
      out,
      paths[i] as readonly string[],
      typeof value === 'bigint' ? value.toString() : value,
    );
  }
  return out;
}
