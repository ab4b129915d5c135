import { useEffect } from 'react'
import { useSite } from '@/lib/site'

/**
 * Applies the site's colours and favicon to the page as they change (an
 * admin saving Site Settings): the brand colour classes read the --brand-*
 * variables, which the served page sets first from the same settings.
 */
export function SiteTheme() {
  const site = useSite()
  const palette = site?.palette
  const favicon = site?.faviconUrl
  const color = site?.primaryColor

  useEffect(() => {
    if (!palette) return
    const root = document.documentElement.style
    for (const [step, rgb] of Object.entries(palette)) root.setProperty(`--brand-${step}`, rgb)
  }, [palette])

  useEffect(() => {
    if (!favicon) return
    let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]')
    if (!link) {
      link = document.createElement('link')
      link.rel = 'icon'
      document.head.appendChild(link)
    }
    link.removeAttribute('type')
    link.href = favicon
  }, [favicon])

  useEffect(() => {
    if (color) document.querySelector('meta[name="theme-color"]')?.setAttribute('content', color)
  }, [color])

  return null
}
