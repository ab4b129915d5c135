import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { server } from '@/test/server'

/** Answers POST /api/contact with answer, recording what was sent. */
function contactEndpoint(answer: () => Response) {
  const sent: unknown[] = []
  server.use(
    http.post('/api/contact', async ({ request }) => {
      sent.push(await request.json())
      return answer()
    }),
  )
  return sent
}

async function contactForm() {
  const { events } = renderApp('/', { user: null })
  const form = within(await screen.findByRole('form', { name: 'Contact us' }))
  return { events, form }
}

describe('contact form', () => {
  it('validates, sends the request, thanks in a toast and resets', async () => {
    const sent = contactEndpoint(() => HttpResponse.json({ success: true }, { status: 201 }))
    const { events, form } = await contactForm()
    await events.click(form.getByRole('button', { name: 'Send request' }))
    expect(await form.findByText('Company is required')).toBeInTheDocument()
    await events.type(form.getByLabelText('Company'), 'Acme Ltd')
    await events.type(form.getByLabelText('Email'), 'not-an-email')
    await events.click(form.getByRole('button', { name: 'Send request' }))
    expect(await form.findByText('Invalid email address')).toBeInTheDocument()
    expect(sent).toEqual([])

    await events.clear(form.getByLabelText('Email'))
    await events.type(form.getByLabelText('Email'), 'ops@acme.example')
    await events.selectOptions(form.getByLabelText("I'm interested in"), 'API integration')
    await events.type(form.getByLabelText('Message (optional)'), 'We resell names to 300 clients.')
    await events.click(form.getByRole('button', { name: 'Send request' }))
    expect(await screen.findByText('Contact request submitted')).toBeInTheDocument()
    expect(screen.getByText("We'll get back to you shortly!")).toBeInTheDocument()
    expect(sent).toEqual([
      {
        kind: 'request',
        company: 'Acme Ltd',
        email: 'ops@acme.example',
        interest: 'api',
        message: 'We resell names to 300 clients.',
      },
    ])
    expect(form.getByLabelText('Company')).toHaveValue('')
    expect(form.getByLabelText('Email')).toHaveValue('')
    expect(form.getByLabelText('Message (optional)')).toHaveValue('')
    expect(form.getByLabelText("I'm interested in")).toHaveDisplayValue('Registering domains as an end user')
  })

  it('sends no message when none is written', async () => {
    const sent = contactEndpoint(() => HttpResponse.json({ success: true }, { status: 201 }))
    const { events, form } = await contactForm()
    await events.type(form.getByLabelText('Company'), 'Acme Ltd')
    await events.type(form.getByLabelText('Email'), 'ops@acme.example')
    await events.click(form.getByRole('button', { name: 'Send request' }))
    expect(await screen.findByText('Contact request submitted')).toBeInTheDocument()
    expect(sent).toEqual([{ kind: 'request', company: 'Acme Ltd', email: 'ops@acme.example', interest: 'end-user' }])
  })

  it("shows the server's refusal instead of the thanks, and keeps what was typed", async () => {
    contactEndpoint(() =>
      HttpResponse.json(
        { success: false, error: 'Rate limit reached: 5 contact requests per minute. Retry in 42 seconds.' },
        { status: 429, headers: { 'Retry-After': '42' } },
      ),
    )
    const { events, form } = await contactForm()
    await events.type(form.getByLabelText('Company'), 'Acme Ltd')
    await events.type(form.getByLabelText('Email'), 'ops@acme.example')
    await events.click(form.getByRole('button', { name: 'Send request' }))
    expect(
      await screen.findByText('Rate limit reached: 5 contact requests per minute. Retry in 42 seconds.'),
    ).toBeInTheDocument()
    expect(screen.queryByText('Contact request submitted')).not.toBeInTheDocument()
    expect(form.getByLabelText('Company')).toHaveValue('Acme Ltd')
  })

  it("shows a field's refusal beside the field", async () => {
    contactEndpoint(() =>
      HttpResponse.json(
        { success: false, error: 'Company must be at most 100 characters', code: 'invalid', field: 'company' },
        { status: 422 },
      ),
    )
    const { events, form } = await contactForm()
    await events.type(form.getByLabelText('Company'), 'Acme Ltd')
    await events.type(form.getByLabelText('Email'), 'ops@acme.example')
    await events.click(form.getByRole('button', { name: 'Send request' }))
    expect(await form.findByText('Company must be at most 100 characters')).toBeInTheDocument()
    expect(screen.queryByText('Contact request submitted')).not.toBeInTheDocument()
  })
})
