import { useQueryClient } from '@tanstack/react-query'
import type { FieldValues, Resolver } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import type { $ZodType } from 'zod/v4/core'
import { rulesQueryOptions, useRules, type Rules } from './rules'

/**
 * The resolver of a form whose checks are the server's rules (GET
 * /api/rules): each validation builds the schema from the rules, waiting
 * for them if they have not arrived yet (they usually have), so the form
 * never checks with a guess. If they cannot be loaded, `schemaOf(undefined)`
 * checks what it can without them; the server checks every request anyway.
 */
export function useRulesResolver<Values extends FieldValues>(
  schemaOf: (rules: Rules | undefined) => $ZodType<Values, Values>,
): Resolver<Values> {
  const queryClient = useQueryClient()
  useRules() // start loading them with the form
  return async (values, context, options) => {
    const rules = await queryClient.ensureQueryData(rulesQueryOptions()).catch(() => undefined)
    return zodResolver(schemaOf(rules))(values, context, options)
  }
}
