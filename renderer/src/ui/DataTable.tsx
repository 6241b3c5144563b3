/**
 * A read-only data table: a real `<table>` with a caption and header cells, inside a
 * region that scrolls sideways when a narrow window cannot fit it (keyboard-scrollable,
 * named by the caption) instead of widening the page. A `fold` table never needs to: its
 * cells wrap, and where its region is narrow (a container query in styles.css) each row
 * becomes a block of lines, each cell after its column's name.
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
  /** Wrap the cells, and fold each row into labelled lines where the region is narrow. */
  readonly fold?: boolean;
};

export function DataTable<Row>({
  id,
  caption,
  columns,
  rows,
  rowKey,
  className,
  rowData,
  fold = false,
}: DataTableProps<Row>) {
  // Folded, a cell is its column's name then its value: the value in one box, so that text,
  // line breaks and links stay together beside the name.
  const content = (c: Column<Row>, row: Row) =>
    fold ? <div className="cell-value">{c.cell(row)}</div> : c.cell(row);
  const regionClass = fold ? "table-scroll table-fold" : "table-scroll";
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable with the keyboard
    <section className={regionClass} aria-labelledby={`${id}-caption`} tabIndex={0}>
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
                    data-label={fold ? c.header : undefined}
                  >
                    {content(c, row)}
                  </th>
                ) : (
                  <td
                    key={c.header}
                    className={c.numeric ? "num" : undefined}
                    data-testid={c.testId?.(row)}
                    data-label={fold ? c.header : undefined}
                  >
                    {content(c, row)}
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
