import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useMutation } from '@tanstack/react-query'
import { ApiError } from '@/lib/api'
import { checkDomain, useDomainSearchResolver, type DomainCheck, type SearchValues } from '@/lib/domainCheck'

/**
 * A domain search: the form (the server's label rules, against the
 * extensions offered now) and the availability check it runs. A failed
 * check calls onFailure with the server's message.
 */
export function useDomainSearch({
  offered,
  defaultValues,
  onFailure,
  onStart,
}: {
  /** The extensions on sale; read at each validation, since the server's list arrives after the form. */
  offered: string[]
  defaultValues: SearchValues
  onFailure: (message: string) => void
  /** A new search starts: the last one's result is gone. */
  onStart?: () => void
}) {
  const [result, setResult] = useState<DomainCheck | null>(null)
  const resolver = useDomainSearchResolver(offered)
  const form = useForm<SearchValues>({ resolver, defaultValues })
  const fieldError = form.formState.errors.name?.message ?? form.formState.errors.extension?.message

  const search = useMutation({
    mutationFn: checkDomain,
    onMutate: () => {
      setResult(null)
      onStart?.()
    },
    onSuccess: (envelope) => {
      if (envelope?.success && envelope.data) setResult(envelope.data)
      else onFailure((envelope && !envelope.success && envelope.error) || 'Failed to check domain availability')
    },
    onError: (error) =>
      onFailure(
        error instanceof ApiError
          ? error.error || 'Failed to check domain availability'
          : 'An unexpected error occurred',
      ),
  })

  // A search refused by the form's checks also ends the last one: its result
  // would otherwise stay under the error, as if it were the answer.
  const submit = form.handleSubmit(
    (values) => search.mutate(values),
    () => {
      setResult(null)
      onStart?.()
    },
  )
  return { form, fieldError, search, result, submit }
}
