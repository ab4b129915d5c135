import type { ReactNode } from 'react'
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react'
import { cx } from '@/lib/classNames'

export type SortDirection = 'asc' | 'desc'
export interface TableSort<K extends string> {
  key: K
  direction: SortDirection
}

/** One column: its header, how a row fills its cell, and (optionally) the key it sorts by. */
export interface Column<Row, K extends string = string> {
  /** The header text; also names the column for screen readers. */
  header: ReactNode
  cell: (row: Row) => ReactNode
  /** Shown only to screen readers (a checkbox column, say). */
  hideHeader?: boolean
  /** Clicking the header sorts by this key; a second click reverses the order. */
  sortKey?: K
  align?: 'left' | 'right'
  /** Classes of this column's cells (wrapping, type). */
  className?: string
  /** The column's width (a Tailwind class such as 'w-24'), set on its header. */
  width?: string
  /** The cell names its row (a <th scope="row">), like the domain of a domain list. */
  rowHeader?: boolean
}

/**
 * The app's one table: typed columns, an empty state, optional sorting by
 * column header, and a layout that fits a phone. With `stacked`, narrow
 * screens get a list of cards (one per row) instead of the table; without
 * it, the table scrolls sideways inside its own box, never the page.
 *
 * Sorting is the caller's: the table shows rows in the order given and says
 * which header was chosen (`onSort`), since each list sorts by its own rules.
 */
export function DataTable<Row, K extends string = string>({
  label,
  rows,
  rowKey,
  columns,
  empty,
  sort,
  onSort,
  stacked,
  stackBelow = 'sm',
  edge = 'card',
  minWidth,
  fixed = false,
  rowClassName,
  className,
}: {
  /** The table's accessible name (and the phone list's). */
  label: string
  rows: readonly Row[]
  rowKey: (row: Row) => string | number
  columns: Column<Row, K>[]
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode
  sort?: TableSort<K>
  onSort?: (key: K) => void
  /** A row as a card on narrow screens; the table shows from `stackBelow` up. */
  stacked?: (row: Row) => ReactNode
  stackBelow?: 'sm' | 'md'
  /**
   * 'card': the table runs to the edges of the card it sits in (CardContent's
   * padding); 'box': a bordered box inside the card.
   */
  edge?: 'card' | 'box'
  /** A minimum width (a Tailwind class such as 'min-w-[720px]'): below it the table scrolls inside its box. */
  minWidth?: string
  /** Column widths from the first row's classes rather than the contents. */
  fixed?: boolean
  /** Classes of a row's table row, and of its card on a phone (a selected row's tint, say). */
  rowClassName?: (row: Row) => string | false | undefined
  className?: string
}) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>

  const onCard = edge === 'card'
  // Cards bleed to the card's edges on phones; 'box' lists sit in a bordered box.
  const listClass = onCard
    ? '-mx-6 divide-y divide-slate-100 border-t border-slate-200'
    : 'divide-y divide-slate-100 rounded-xl border border-slate-200'
  const hideList = stackBelow === 'md' ? 'md:hidden' : 'sm:hidden'
  const showTable = stackBelow === 'md' ? 'hidden md:block' : 'hidden sm:block'
  const cellPad = onCard ? 'px-3 py-3 first:pl-6 last:pr-6' : 'px-3 py-2.5'

  return (
    <div className={className}>
      {stacked && (
        <ul aria-label={label} className={cx(listClass, hideList)}>
          {rows.map((row) => (
            <li key={rowKey(row)} className={cx(onCard ? 'px-6 py-4' : 'p-4', rowClassName?.(row))}>
              {stacked(row)}
            </li>
          ))}
        </ul>
      )}
      <div
        className={cx(
          'overflow-x-auto',
          onCard ? '-mx-6' : 'rounded-xl border border-slate-200',
          stacked && showTable,
        )}
      >
        <table aria-label={label} className={cx('w-full text-left text-sm', fixed && 'table-fixed', minWidth)}>
          <thead
            className={cx(
              'bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-500',
              onCard ? 'border-y border-slate-200' : 'border-b border-slate-200',
            )}
          >
            <tr>
              {columns.map((column, index) => (
                <HeaderCell key={index} column={column} sort={sort} onSort={onSort} className={cellPad} />
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => (
              <tr key={rowKey(row)} className={cx('hover:bg-slate-50/60', rowClassName?.(row))}>
                {columns.map((column, index) => {
                  const classes = cx(cellPad, column.align === 'right' && 'text-right', column.className)
                  return column.rowHeader ? (
                    <th key={index} scope="row" className={cx(classes, 'font-medium text-slate-900')}>
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td key={index} className={classes}>
                      {column.cell(row)}
                    </td>
                  )
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}

function HeaderCell<Row, K extends string>({
  column,
  sort,
  onSort,
  className,
}: {
  column: Column<Row, K>
  sort?: TableSort<K>
  onSort?: (key: K) => void
  className: string
}) {
  const align = column.align === 'right' && 'text-right'
  if (column.hideHeader) {
    return (
      <th scope="col" className={cx(className, column.width ?? 'w-10')}>
        <span className="sr-only">{column.header}</span>
      </th>
    )
  }
  const sortKey = column.sortKey
  if (sortKey === undefined || !onSort) {
    return (
      <th scope="col" className={cx(className, align, column.width)}>
        {column.header}
      </th>
    )
  }
  const active = sort?.key === sortKey
  const Arrow = !active ? ArrowUpDown : sort.direction === 'asc' ? ArrowUp : ArrowDown
  return (
    <th
      scope="col"
      className={cx(className, align, column.width)}
      aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}
    >
      <button
        type="button"
        onClick={() => onSort(sortKey)}
        className="-mx-1 inline-flex items-center gap-1 rounded px-1 uppercase tracking-wide hover:text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        {column.header}
        <Arrow className={cx('h-3 w-3', active ? 'text-slate-700' : 'text-slate-400')} aria-hidden />
      </button>
    </th>
  )
}

/** The next sort after a header click: the same key flips the direction, a new key starts ascending. */
export function nextTableSort<K extends string>(current: TableSort<K>, key: K): TableSort<K> {
  return current.key === key
    ? { key, direction: current.direction === 'asc' ? 'desc' : 'asc' }
    : { key, direction: 'asc' }
}

/** A table's state with no rows at all, or none matching: an icon, a title, a line and an action. */
export function EmptyState({
  icon,
  title,
  text,
  children,
  className,
}: {
  icon?: ReactNode
  title: ReactNode
  text?: ReactNode
  children?: ReactNode
  className?: string
}) {
  return (
    <div className={cx('flex flex-col items-center py-12 text-center', className)}>
      {icon}
      <p className="mt-3 font-medium text-slate-900">{title}</p>
      {text && <p className="mt-1 max-w-md text-sm text-slate-600">{text}</p>}
      {children}
    </div>
  )
}
