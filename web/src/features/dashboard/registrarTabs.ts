/**
 * The registrar dashboard's tabs, in order. Its own module: the route reads
 * it to check ?tab= when the app loads, and importing it from the dashboard
 * component would pull the whole dashboard (charts, bulk operations) into
 * the entry chunk every page loads.
 */
export const registrarTabs = ['domains', 'bulk', 'reports', 'api', 'logs', 'webhooks', 'settings'] as const
export type RegistrarTab = (typeof registrarTabs)[number]
