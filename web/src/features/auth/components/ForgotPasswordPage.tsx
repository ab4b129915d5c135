import { Link } from '@tanstack/react-router'
import { MailCheck } from 'lucide-react'
import { buttonStyles } from '@/components/ui/button'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { AuthCard } from './AuthCard'

export function ForgotPasswordPage() {
  useDocumentTitle('Forgot password')
  return (
    <AuthCard
      title="Forgot password"
      subtitle="Password reset by email is coming with the notifications release."
      footer={
        <>
          Remembered it?{' '}
          <Link to="/login" className="font-medium text-brand-700 hover:text-brand-800 hover:underline">
            Back to log in
          </Link>
        </>
      }
    >
      <div className="flex gap-3 rounded-xl bg-slate-50 p-4 text-sm text-slate-600 ring-1 ring-slate-200">
        <MailCheck className="h-5 w-5 shrink-0 text-brand-600" aria-hidden />
        <p>
          Until then a password cannot be reset from here. If you are locked out of your account, reach us through the{' '}
          <Link to="/" hash="contact" className="font-medium text-brand-700 hover:underline">
            contact form
          </Link>
          .
        </p>
      </div>
      <Link to="/login" className={buttonStyles({ size: 'lg', className: 'mt-6 w-full' })}>
        Back to log in
      </Link>
    </AuthCard>
  )
}
