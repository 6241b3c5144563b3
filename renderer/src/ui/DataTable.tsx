/**
 * A read-only data table: a real `<table>` with a caption and header cells, inside a
 * region that scrolls sideways when a narrow window cannot fit it (keyboard-scrollable,
 * named by the caption) instead of widening the page.
 * @module
 */
import type { ReactNode } from "react";

export type Column<Row> = {
  readonly header: string;
  readonly cell: (row: Row) => ReactNode;
  readonly numeric?: boolean;
  /** The first column is a row header by default. */
  readonly rowHeader?: boolean;
  readonly testId?: (row: Row) => string;
};

export type DataTableProps<Row> = {
  readonly id: string;
  readonly caption: string;
  readonly columns: readonly Column<Row>[];
  readonly rows: readonly Row[];
  readonly rowKey: (row: Row) => string;
  readonly className?: string;
  readonly rowData?: (row: Row) => string;
};

export function DataTable<Row>({
  id,
  caption,
  columns,
  rows,
  rowKey,
  className,
  rowData,
}: DataTableProps<Row>) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable with the keyboard
    <section className="table-scroll" aria-labelledby={`${id}-caption`} tabIndex={0}>
      <table className={`data-table ${className ?? ""}`}>
        <caption id={`${id}-caption`}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={c.numeric ? "num" : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} data-row={rowData?.(row)}>
              {columns.map((c, i) =>
                (c.rowHeader ?? i === 0) ? (
                  <th
                    key={c.header}
                    scope="row"
                    className={c.numeric ? "num" : undefined}
                    data-testid={c.testId?.(row)}
                  >
                    {c.cell(row)}
                  </th>
                ) : (
                  <td
                    key={c.header}
                    className={c.numeric ? "num" : undefined}
                    data-testid={c.testId?.(row)}
                  >
                    {c.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
