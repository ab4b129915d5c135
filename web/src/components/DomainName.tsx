import { Fragment } from 'react'

/**
 * A domain name that wraps between its labels on narrow screens: a line
 * break may come before each dot (where URLs are broken), and inside a
 * label only when that label alone is wider than the line. CSS offers
 * neither: a name is one word, and break-all splits it anywhere.
 */
export function DomainName({ children }: { children: string }) {
  const labels = children.split('.')
  return (
    <span className="[overflow-wrap:anywhere]">
      {labels.map((label, i) => (
        <Fragment key={i}>
          {i > 0 && (
            <>
              <wbr />.
            </>
          )}
          {label}
        </Fragment>
      ))}
    </span>
  )
}
