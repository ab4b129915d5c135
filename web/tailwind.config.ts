import type { Config } from 'tailwindcss'
import colors from 'tailwindcss/colors'

const brandShades = Object.fromEntries(
  [50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950].map((step) => [
    step,
    `rgb(var(--brand-${step}) / <alpha-value>)`,
  ]),
) as Record<50 | 100 | 200 | 300 | 400 | 500 | 600 | 700 | 800 | 900 | 950, string>

export default {
  darkMode: 'class',
  content: [
    './index.html',
    './src/**/*.{ts,tsx}',
    // Only the Tremor components the app uses, so their classes are generated
    // without pulling in the classes of the whole library.
    './node_modules/@tremor/react/dist/components/layout-elements/Card/*.js',
    './node_modules/@tremor/react/dist/components/text-elements/{Metric,Text,Legend}/*.js',
    // The admin Statistics tab's charts and the registrar's Reports tab.
    './node_modules/@tremor/react/dist/components/chart-elements/{AreaChart,BarChart,DonutChart,common}/*.js',
    './node_modules/@tremor/react/dist/components/vis-elements/BarList/*.js',
    // The registrar dashboard's monthly allowance.
    './node_modules/@tremor/react/dist/components/vis-elements/ProgressBar/*.js',
  ],
  // Tremor builds its chart colour classes at run time (`fill-${color}-500`),
  // so the colours the charts use are listed here.
  safelist: [
    {
      pattern: /^(bg|text|border|ring|stroke|fill)-(blue|emerald|amber|violet|cyan)-(100|200|300|400|500|600|700)$/,
    },
    // The allowance's progress bar once it is used up (amber, nearly, is above).
    'bg-rose-500',
  ],
  theme: {
    extend: {
      fontFamily: {
        sans: [
          'Inter',
          'ui-sans-serif',
          'system-ui',
          '-apple-system',
          'Segoe UI',
          'Roboto',
          'Helvetica Neue',
          'Arial',
          'sans-serif',
        ],
      },
      colors: {
        // The site's primary colour (Site Settings: primary_color) and its
        // shades, as CSS variables the server sets in the page it serves and
        // the app updates (SiteTheme); index.css holds the defaults.
        brand: brandShades,
        tremor: {
          brand: {
            faint: brandShades[50],
            muted: brandShades[200],
            subtle: brandShades[400],
            DEFAULT: brandShades[600],
            emphasis: brandShades[700],
            inverted: colors.white,
          },
          background: {
            muted: colors.slate[50],
            subtle: colors.slate[100],
            DEFAULT: colors.white,
            emphasis: colors.slate[700],
          },
          border: { DEFAULT: colors.slate[200] },
          ring: { DEFAULT: colors.slate[200] },
          content: {
            subtle: colors.slate[400],
            DEFAULT: colors.slate[500],
            emphasis: colors.slate[700],
            strong: colors.slate[900],
            inverted: colors.white,
          },
        },
      },
      boxShadow: {
        'tremor-input': '0 1px 2px 0 rgb(0 0 0 / 0.05)',
        'tremor-card': '0 1px 3px 0 rgb(0 0 0 / 0.1), 0 1px 2px -1px rgb(0 0 0 / 0.1)',
        'tremor-dropdown': '0 4px 6px -1px rgb(0 0 0 / 0.1), 0 2px 4px -2px rgb(0 0 0 / 0.1)',
      },
      borderRadius: {
        'tremor-small': '0.375rem',
        'tremor-default': '0.75rem',
        'tremor-full': '9999px',
      },
      fontSize: {
        'tremor-label': ['0.75rem', { lineHeight: '1rem' }],
        'tremor-default': ['0.875rem', { lineHeight: '1.25rem' }],
        'tremor-title': ['1.125rem', { lineHeight: '1.75rem' }],
        'tremor-metric': ['1.875rem', { lineHeight: '2.25rem' }],
      },
      keyframes: {
        'toast-in-bottom': {
          from: { transform: 'translateY(100%)', opacity: '0' },
          to: { transform: 'translateY(0)', opacity: '1' },
        },
        'toast-in-top': {
          from: { transform: 'translateY(-100%)', opacity: '0' },
          to: { transform: 'translateY(0)', opacity: '1' },
        },
        'toast-out': { from: { opacity: '1' }, to: { opacity: '0' } },
        'fade-in': { from: { opacity: '0' }, to: { opacity: '1' } },
        'dialog-in': {
          from: { opacity: '0', transform: 'translateY(8px) scale(0.98)' },
          to: { opacity: '1', transform: 'translateY(0) scale(1)' },
        },
        'toast-swipe-out': {
          from: { transform: 'translateX(var(--radix-toast-swipe-end-x))' },
          to: { transform: 'translateX(100%)' },
        },
      },
      animation: {
        'toast-in-bottom': 'toast-in-bottom 150ms ease-out',
        'toast-in-top': 'toast-in-top 150ms ease-out',
        'toast-out': 'toast-out 100ms ease-in forwards',
        'toast-swipe-out': 'toast-swipe-out 100ms ease-out forwards',
        'fade-in': 'fade-in 150ms ease-out',
        'dialog-in': 'dialog-in 150ms ease-out',
      },
    },
  },
  plugins: [],
} satisfies Config
