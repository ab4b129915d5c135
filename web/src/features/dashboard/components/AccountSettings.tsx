import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, Input } from '@/components/ui/form'
import type { User } from '@/lib/session'
import { ChangePasswordDialog } from './ChangePasswordDialog'
import { PasskeysSettings } from './PasskeysSettings'
import { SessionsSettings } from './SessionsSettings'
import { TwoFactorSettings } from './TwoFactorSettings'

export function AccountSettings({ user }: { user: User }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Account Settings</CardTitle>
        <CardDescription>Your login details, two-factor sign-in, passkeys and where you are signed in.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Username">{(ids) => <Input {...ids} value={user.username} readOnly />}</Field>
          <Field label="Email">{(ids) => <Input {...ids} type="email" value={user.email} readOnly />}</Field>
        </div>
        <ChangePasswordDialog />
        <TwoFactorSettings />
        <PasskeysSettings />
        <SessionsSettings />
      </CardContent>
    </Card>
  )
}
