import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
// zod/mini keeps form chunks small; it shares its core with the route schemas.
import * as z from 'zod/mini'
import { Link } from '@tanstack/react-router'
import { useMutation } from '@tanstack/react-query'
import { Building2, Globe } from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import { Field, Input, Select, Textarea } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { ApiError, serverMessage } from '@/lib/api'
import { sendContactRequest } from '../api/contact'
import { Section } from './Section'

const interests = [
  { value: 'end-user', label: 'Registering domains as an end user' },
  { value: 'registrar', label: 'Becoming a registrar partner' },
  { value: 'api', label: 'API integration' },
  { value: 'other', label: 'Other' },
] as const

const contactSchema = z.object({
  company: z.string().check(z.trim(), z.minLength(1, 'Company is required')),
  email: z.pipe(z.string().check(z.trim(), z.minLength(1, 'Email is required')), z.email('Invalid email address')),
  interest: z.enum(interests.map((interest) => interest.value) as [string, ...string[]]),
  // Optional; when given it says something (the server's rule too).
  message: z.string().check(
    z.trim(),
    z.refine((text) => text === '' || text.length >= 10, 'Message must be at least 10 characters'),
    z.maxLength(5000, 'Message must be at most 5000 characters'),
  ),
})

type ContactValues = z.infer<typeof contactSchema>

const defaultValues: ContactValues = { company: '', email: '', interest: 'end-user', message: '' }

const fields = ['company', 'email', 'interest', 'message'] as const

export function ContactSection() {
  const form = useForm<ContactValues>({ resolver: zodResolver(contactSchema), defaultValues })
  const { errors } = form.formState

  // Stored for the admins' Inbox and mailed to the site's contact address
  // (issue 26); the spec's toast and reset follow the server's answer.
  const mutation = useMutation({
    mutationFn: (values: ContactValues) => sendContactRequest({ ...values, message: values.message || undefined }),
    onSuccess: () => {
      toast({ title: 'Contact request submitted', description: "We'll get back to you shortly!" })
      form.reset(defaultValues)
    },
    onError: (failure) => {
      const message = serverMessage(failure) || 'Your request could not be sent. Please try again.'
      const field = failure instanceof ApiError ? fields.find((name) => name === failure.field) : undefined
      if (field) form.setError(field, { message })
      toast({ variant: 'destructive', title: 'Error', description: message })
    },
  })
  const submit = form.handleSubmit((values) => mutation.mutate(values))

  return (
    <Section
      id="contact"
      eyebrow="Contact"
      title="Ready to get started?"
      intro="Register your first domain today, or talk to us about becoming a registrar partner."
    >
      <div className="grid gap-10 lg:grid-cols-2">
        <div className="flex flex-col gap-6">
          <div className="rounded-2xl bg-gradient-to-br from-brand-600 to-brand-800 p-8 text-white shadow-lg">
            <h3 className="text-xl font-semibold">Start with a name</h3>
            <p className="mt-2 text-brand-100">Create an account in a minute and register domains from $8 per year.</p>
            <div className="mt-6 flex flex-col gap-3 sm:flex-row">
              <Link to="/register" className={buttonStyles({ variant: 'inverse' })}>
                <Globe className="h-4 w-4" aria-hidden />
                Register Domain
              </Link>
              <Link
                to="/register"
                search={{ type: 'registrar' }}
                className={buttonStyles({
                  variant: 'ghost',
                  className: 'text-white ring-1 ring-white/40 hover:bg-white/10 hover:text-white',
                })}
              >
                <Building2 className="h-4 w-4" aria-hidden />
                Become a Partner
              </Link>
            </div>
          </div>
          <p className="text-sm text-slate-600">
            Registrar partners get wholesale pricing from $4 per domain, API access and a control panel for bulk work.
          </p>
        </div>

        <form
          noValidate
          onSubmit={submit}
          aria-label="Contact us"
          className="space-y-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8"
        >
          <Field label="Company" error={errors.company?.message}>
            {(ids) => <Input {...ids} autoComplete="organization" {...form.register('company')} />}
          </Field>
          <Field label="Email" error={errors.email?.message}>
            {(ids) => <Input {...ids} type="email" autoComplete="email" {...form.register('email')} />}
          </Field>
          <Field label="I'm interested in">
            {(ids) => (
              <Select {...ids} {...form.register('interest')}>
                {interests.map((interest) => (
                  <option key={interest.value} value={interest.value}>
                    {interest.label}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Message (optional)" error={errors.message?.message}>
            {(ids) => <Textarea {...ids} rows={3} {...form.register('message')} />}
          </Field>
          <Button type="submit" size="lg" className="w-full" disabled={mutation.isPending}>
            Send request
          </Button>
        </form>
      </div>
    </Section>
  )
}
