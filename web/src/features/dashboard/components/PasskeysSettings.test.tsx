import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, server } from '@/test/server'

// Adding a passkey needs a browser's authenticator (proven in
// e2e/passkeys.test.mjs); here: the list, renaming and removing (with the password).
describe('passkeys in Account Settings', () => {
  it('lists passkeys with when they were added and used, renames and removes one', async () => {
    let list = [
      { id: 7, name: 'Laptop', createdAt: '2026-11-20T09:30:00Z', lastUsedAt: '2026-11-25T10:00:00Z' },
      { id: 8, name: 'Phone', createdAt: '2026-11-21T09:30:00Z' },
    ]
    const renamed: unknown[] = []
    const removals: unknown[] = []
    server.use(
      http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })),
      http.get('/api/account/passkeys', () => HttpResponse.json({ success: true, data: list })),
      http.patch('/api/account/passkeys/7', async ({ request }) => {
        const body = (await request.json()) as { name: string }
        renamed.push(body)
        list = list.map((p) => (p.id === 7 ? { ...p, name: body.name } : p))
        return HttpResponse.json({ success: true, data: list[0] })
      }),
      http.delete('/api/account/passkeys/8', async ({ request }) => {
        const body = (await request.json()) as { password: string }
        removals.push(body)
        if (body.password !== 'secret1') {
          return HttpResponse.json({ success: false, error: 'Password is incorrect' }, { status: 422 })
        }
        list = list.filter((p) => p.id !== 8)
        return HttpResponse.json({ success: true, data: null })
      }),
    )
    const { events } = renderApp('/dashboard', { user: endUser })
    await events.click(await screen.findByRole('tab', { name: 'Account Settings' }))
    const passkeys = await screen.findByRole('list', { name: 'Passkeys' })
    expect(within(passkeys).getByRole('listitem', { name: 'Laptop' })).toHaveTextContent(/Last used Nov 25, 2026/)
    expect(within(passkeys).getByRole('listitem', { name: 'Phone' })).toHaveTextContent('Never used')

    await events.click(
      within(within(passkeys).getByRole('listitem', { name: 'Laptop' })).getByRole('button', { name: 'Rename' }),
    )
    const dialog = await screen.findByRole('dialog', { name: 'Rename passkey' })
    await events.clear(within(dialog).getByLabelText('Name'))
    await events.type(within(dialog).getByLabelText('Name'), 'Work laptop')
    await events.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(passkeys).findByRole('listitem', { name: 'Work laptop' })).toBeInTheDocument()
    expect(renamed).toEqual([{ name: 'Work laptop' }])

    await events.click(
      within(within(passkeys).getByRole('listitem', { name: 'Phone' })).getByRole('button', { name: 'Remove' }),
    )
    // The password is asked again; the server's refusal shows on the field.
    const remove = within(await screen.findByRole('dialog', { name: 'Remove this passkey?' }))
    await events.click(remove.getByRole('button', { name: 'Remove' }))
    expect(await remove.findByText('Enter your password')).toBeInTheDocument()
    await events.type(remove.getByLabelText('Password'), 'wrong')
    await events.click(remove.getByRole('button', { name: 'Remove' }))
    expect(await remove.findByText('Password is incorrect')).toBeInTheDocument()
    await events.clear(remove.getByLabelText('Password'))
    await events.type(remove.getByLabelText('Password'), 'secret1')
    await events.click(remove.getByRole('button', { name: 'Remove' }))
    expect(await screen.findByText('Passkey removed')).toBeInTheDocument()
    expect(removals).toEqual([{ password: 'wrong' }, { password: 'secret1' }])
    await screen.findByText(/Work laptop/)
    expect(within(screen.getByRole('list', { name: 'Passkeys' })).queryByRole('listitem', { name: 'Phone' })).toBeNull()
  })
})
