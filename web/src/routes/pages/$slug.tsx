import { createFileRoute, notFound } from '@tanstack/react-router'
import { ApiError } from '@/lib/api'
import { pageQueryOptions } from '@/features/pages/api/pages'
import { PageView } from '@/features/pages/components/PageView'

// A page admins publish (Terms of Service, Privacy Policy…). One that does
// not exist or is not published is the app's not-found page.
export const Route = createFileRoute('/pages/$slug')({
  loader: async ({ context, params }) => {
    try {
      await context.queryClient.ensureQueryData(pageQueryOptions(params.slug))
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 422)) throw notFound()
      throw error
    }
  },
  component: PageRoute,
})

function PageRoute() {
  const { slug } = Route.useParams()
  return <PageView slug={slug} />
}
