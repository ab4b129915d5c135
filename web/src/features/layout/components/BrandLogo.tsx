import { cx } from '@/lib/classNames'
import { useSite } from '@/lib/site'

/** The logo every server has (web/public/logo.svg), drawn inline here so it takes the site's colour. */
const DEFAULT_LOGO = '/logo.svg'

/** The site's logo and name (Site Settings: logo_url, site_name). */
export function BrandLogo({ className, inverted = false }: { className?: string; inverted?: boolean }) {
  const site = useSite()
  const logo = site?.logoUrl ?? DEFAULT_LOGO
  return (
    <span className={cx('inline-flex min-w-0 items-center gap-2 font-semibold tracking-tight', className)}>
      {logo === DEFAULT_LOGO ? (
        <svg viewBox="0 0 32 32" className="h-8 w-8 shrink-0" aria-hidden>
          <rect width="32" height="32" rx="8" className={inverted ? 'fill-white' : 'fill-brand-600'} />
          <path
            d="M9 23V9h3.2l7.1 9.3V9H23v14h-3.1l-7.2-9.4V23z"
            className={inverted ? 'fill-brand-700' : 'fill-white'}
          />
        </svg>
      ) : (
        <img src={logo} alt="" className="h-8 w-auto max-w-[8rem] shrink-0 object-contain" />
      )}
      <span className={cx('truncate text-lg', inverted ? 'text-white' : 'text-slate-900')}>
        {site?.name ?? 'Nameport'}
      </span>
    </span>
  )
}
