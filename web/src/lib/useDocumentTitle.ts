import { useEffect } from 'react'

/** Sets the browser tab title while the calling page is shown. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    const previous = document.title
    document.title = `${title} · Nameport`
    return () => {
      document.title = previous
    }
  }, [title])
}
