import { useEffect, useState, type ReactNode } from 'react'
import { Link, useNavigate } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import {
  AlertOctagon,
  ArrowLeft,
  CalendarClock,
  CalendarPlus,
  Globe,
  Lock,
  Mail,
  Network,
  RefreshCw,
  RotateCw,
  Settings,
} from 'lucide-react'
import { Badge, PremiumBadge } from '@/components/ui/badge'
import { Button, buttonStyles } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/Spinner'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { toast } from '@/components/toast/toastStore'
import { serverMessage } from '@/lib/api'
import { formatDate, formatUsd } from '@/lib/format'
import { currentUserQueryOptions, dashboardPathFor } from '@/lib/session'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { domainQueryOptions, useSetAutoRenew, type Domain } from '../api/domains'
import { lifecycleOf, renewalTermsOf } from '../lifecycle'
import { DomainStatusBadge } from './DomainStatusBadge'
import { RenewDialog } from './RenewDialog'
import { DomainName } from '@/components/DomainName'

export type DomainTab = 'dns' | 'email-forwarding' | 'domain-forwarding' | 'settings'

export function DomainManagementPage({
  id,
  tab,
  onTabChange,
  dnsPanel,
  emailPanel,
  forwardingPanel,
}: {
  id: string
  tab: DomainTab
  onTabChange: (tab: DomainTab) => void
  /** The DNS Management tab's content (the route brings it from the DNS feature). */
  dnsPanel: (domain: Domain) => ReactNode
  /** The Email Forwarding tab's content (from the email forwarding feature). */
  emailPanel: (domain: Domain) => ReactNode
  /** The Domain Forwarding tab's content (from the domain forwarding feature). */
  forwardingPanel: (domain: Domain) => ReactNode
}) {
  const { data: user } = useQuery({ ...currentUserQueryOptions(), enabled: false })
  const { data: domain, isError } = useQuery(domainQueryOptions(id))
  const navigate = useNavigate()
  const dashboardPath = dashboardPathFor(user)
  useDocumentTitle(domain ? `${domain.name}${domain.extension}` : 'Domain')

  useEffect(() => {
    if (!isError) return
    toast({ variant: 'destructive', title: 'Error', description: 'Could not load domain information' })
    void navigate({ to: dashboardPath, replace: true })
  }, [isError, navigate, dashboardPath])

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <Link to={dashboardPath} className={buttonStyles({ variant: 'ghost', size: 'sm', className: '-ml-3' })}>
        <ArrowLeft className="h-4 w-4" aria-hidden />
        Back to Dashboard
      </Link>

      {!domain ? (
        <div className="flex justify-center py-24">
          <Spinner className="h-8 w-8" label="Loading domain" />
        </div>
      ) : (
        <>
          <DomainSummary domain={domain} />

          <Tabs value={tab} onValueChange={(value) => onTabChange(value as DomainTab)} className="mt-8">
            <TabsList className="w-fit">
              <TabsTrigger value="dns">
                <Network className="hidden h-4 w-4 sm:block" aria-hidden />
                DNS Management
              </TabsTrigger>
              <TabsTrigger value="email-forwarding">
                <Mail className="hidden h-4 w-4 sm:block" aria-hidden />
                Email Forwarding
              </TabsTrigger>
              <TabsTrigger value="domain-forwarding">
                <Globe className="hidden h-4 w-4 sm:block" aria-hidden />
                Domain Forwarding
              </TabsTrigger>
              <TabsTrigger value="settings">
                <Settings className="hidden h-4 w-4 sm:block" aria-hidden />
                Domain Settings
              </TabsTrigger>
            </TabsList>
            <TabsContent value="dns">{dnsPanel(domain)}</TabsContent>
            <TabsContent value="email-forwarding">{emailPanel(domain)}</TabsContent>
            <TabsContent value="domain-forwarding">{forwardingPanel(domain)}</TabsContent>
            <TabsContent value="settings">
              <DomainSettings domain={domain} />
            </TabsContent>
          </Tabs>
        </>
      )}
    </div>
  )
}

/**
 * The title card: name, status, dates, auto-renewal and Renew (always offered
 * to the owner, also ahead of time), with a banner while the domain is expired.
 */
function DomainSummary({ domain }: { domain: Domain }) {
  const [renewing, setRenewing] = useState(false)
  const lifecycle = lifecycleOf(domain)
  return (
    <div className="mt-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="min-w-0 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
              <DomainName>{`${domain.name}${domain.extension}`}</DomainName>
            </h1>
            {domain.isPremium && (
              <PremiumBadge />
            )}
          </div>
          <dl className="mt-4 flex flex-wrap gap-x-8 gap-y-2 text-sm text-slate-600">
            <div className="flex items-center gap-2">
              <dt className="sr-only">Status</dt>
              <dd>
                <DomainStatusBadge lifecycle={lifecycle} />
              </dd>
            </div>
            <div className="flex items-center gap-2">
              <CalendarPlus className="h-4 w-4 text-slate-400" aria-hidden />
              <dt>Registered</dt>
              <dd className="font-medium text-slate-900">{formatDate(domain.registeredAt)}</dd>
            </div>
            <div className="flex items-center gap-2">
              <CalendarClock className="h-4 w-4 text-slate-400" aria-hidden />
              <dt>{lifecycle.status === 'expired' ? 'Expired' : 'Expires'}</dt>
              <dd className="font-medium text-slate-900">{formatDate(domain.expiresAt)}</dd>
            </div>
            <div className="flex items-center gap-2">
              <RefreshCw className="h-4 w-4 text-slate-400" aria-hidden />
              <dt>Auto-renew</dt>
              <dd className="font-medium text-slate-900">{domain.autoRenew ? 'On' : 'Off'}</dd>
            </div>
          </dl>
        </div>
        {/* Offered always; it stands out once renewing is due. */}
        <Button
          variant={lifecycle.status === 'active' ? 'outline' : 'primary'}
          onClick={() => setRenewing(true)}
          className="w-full sm:w-auto"
        >
          <RotateCw className="h-4 w-4" aria-hidden />
          Renew
        </Button>
      </div>

      {lifecycle.status === 'expired' && (
        <div
          role="alert"
          className="mt-5 flex gap-3 rounded-xl bg-red-50 p-4 text-sm text-red-800 ring-1 ring-inset ring-red-200"
        >
          <AlertOctagon className="h-5 w-5 shrink-0 text-red-500" aria-hidden />
          <div>
            <p className="font-semibold">This domain has expired</p>
            <p className="mt-0.5">
              It stopped resolving on {formatDate(domain.expiresAt)}. Renew it before{' '}
              <span className="font-semibold">{formatDate(lifecycle.graceEndsAt)}</span> or it will be released and
              anyone can register it.
            </p>
          </div>
        </div>
      )}

      {/* Mounted per opening, so each opening has its own Idempotency-Key. */}
      {renewing && <RenewDialog domain={domain} onClose={() => setRenewing(false)} />}
    </div>
  )
}

function DomainSettings({ domain }: { domain: Domain }) {
  const terms = renewalTermsOf(domain)
  const setAutoRenew = useSetAutoRenew(domain.id)
  const toggleAutoRenew = () =>
    setAutoRenew.mutate(!domain.autoRenew, {
      onSuccess: (updated) =>
        toast(
          updated.autoRenew
            ? {
                title: 'Auto-renewal enabled',
                description: `${domain.name}${domain.extension} will renew from your wallet.`,
              }
            : {
                title: 'Auto-renewal disabled',
                description: `${domain.name}${domain.extension} will expire on ${formatDate(updated.expiresAt)} unless renewed.`,
              },
        ),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description: serverMessage(error) || 'Failed to update auto-renewal',
        }),
    })

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <div className="min-w-0 space-y-6">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <RefreshCw className="h-5 w-5 text-brand-600" aria-hidden />
              Auto-renewal
            </CardTitle>
            <CardDescription>
              When auto-renewal is on, the domain renews from your wallet balance before it expires.
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
            <p className="flex items-center gap-2 text-sm text-slate-700">
              Status:
              {domain.autoRenew ? <Badge tone="success">Enabled</Badge> : <Badge tone="muted">Disabled</Badge>}
            </p>
            <Button
              variant={domain.autoRenew ? 'outline' : 'primary'}
              disabled={setAutoRenew.isPending}
              aria-label={domain.autoRenew ? 'Disable auto-renewal' : 'Enable auto-renewal'}
              onClick={toggleAutoRenew}
            >
              {setAutoRenew.isPending ? 'Saving...' : domain.autoRenew ? 'Disable' : 'Enable'}
            </Button>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Lock className="h-5 w-5 text-brand-600" aria-hidden />
              Transfer lock
            </CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-sm text-slate-700">
              Transfer lock is enabled. The domain cannot be transferred to another registrar while it is locked.
            </p>
          </CardContent>
        </Card>
      </div>

      <Card className="h-fit">
        <CardHeader>
          <CardTitle>Domain information</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="divide-y divide-slate-100 text-sm">
            <InfoRow label="Registration date">{formatDate(domain.registeredAt)}</InfoRow>
            <InfoRow label="Expiration date">{formatDate(domain.expiresAt)}</InfoRow>
            <InfoRow label="Type">
              {domain.isPremium ? <Badge tone="premium">Premium</Badge> : <Badge>Standard</Badge>}
            </InfoRow>
            <InfoRow label="Yearly price">{formatUsd(domain.price)}</InfoRow>
            {domain.renewalPrice !== undefined && (
              <InfoRow label="Renewal price">
                {formatUsd(terms.price)} / {terms.periodText}
              </InfoRow>
            )}
          </dl>
        </CardContent>
      </Card>
    </div>
  )
}

function InfoRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-4 py-3 first:pt-0 last:pb-0">
      <dt className="text-slate-600">{label}</dt>
      <dd className="font-medium text-slate-900">{children}</dd>
    </div>
  )
}
