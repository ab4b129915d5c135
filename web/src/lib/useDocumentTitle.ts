import { useEffect } from 'react'
import { useSiteName } from './site'

/** Sets the browser tab title, under the site's name, while the calling page is shown. */
export function useDocumentTitle(title: string): void {
  const siteName = useSiteName()
  useEffect(() => {
    const previous = document.title
    document.title = `${title} · ${siteName}`
    return () => {
      document.title = previous
    }
  }, [title, siteName])
}
