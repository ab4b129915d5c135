import { BarChart3, Cog, CreditCard, Crown, Globe2, LayoutTemplate, Users } from 'lucide-react'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { useDocumentTitle } from '@/lib/useDocumentTitle'

// The management tools of the first five tabs arrive in a later release;
// until then each tab shows only its heading.
const tabs = [
  { value: 'premium-domains', label: 'Premium Domains', icon: Crown },
  { value: 'extensions', label: 'Domain Extensions', icon: Globe2 },
  { value: 'advanced', label: 'Advanced Config', icon: Cog },
  { value: 'site-settings', label: 'Site Settings', icon: LayoutTemplate },
  { value: 'payment-gateways', label: 'Payment Gateways', icon: CreditCard },
  { value: 'users', label: 'Users', icon: Users, placeholder: 'User management coming soon' },
  { value: 'statistics', label: 'Statistics', icon: BarChart3, placeholder: 'Statistics dashboard coming soon' },
] as const

export function AdminDashboard() {
  useDocumentTitle('Admin Dashboard')
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Admin Dashboard</h1>
      <p className="mt-1 text-slate-600">Platform configuration.</p>
      <Tabs defaultValue="premium-domains" className="mt-8">
        <TabsList>
          {tabs.map(({ value, label, icon: Icon }) => (
            <TabsTrigger key={value} value={value}>
              <Icon className="h-4 w-4" aria-hidden />
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        {tabs.map((tab) => (
          <TabsContent key={tab.value} value={tab.value}>
            <Card>
              <CardHeader>
                <CardTitle>{tab.label}</CardTitle>
              </CardHeader>
              {'placeholder' in tab && (
                <CardContent>
                  <p className="py-10 text-center text-slate-500">{tab.placeholder}</p>
                </CardContent>
              )}
            </Card>
          </TabsContent>
        ))}
      </Tabs>
    </div>
  )
}
