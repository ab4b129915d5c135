// Starts Redoc (redoc.standalone.js, copied here by the web build) on the
// pages of the API reference, /docs and /docs/v1, which internal/api/docs.go
// serves: it renders the OpenAPI document the page names, in the site's
// primary colour. A file of its own, not inline, so that the pages' policy
// runs no inline script.
;(function () {
  var root = document.getElementById('redoc')
  if (!root || typeof Redoc === 'undefined') return
  var fonts = "Inter, ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
  Redoc.init(
    root.dataset.specUrl,
    {
      expandResponses: '200,201',
      requiredPropsFirst: true,
      jsonSampleExpandLevel: 3,
      hideHostname: true,
      theme: {
        colors: { primary: { main: root.dataset.primaryColor || '#4f46e5' } },
        typography: {
          fontFamily: fonts,
          headings: { fontFamily: fonts, fontWeight: '600' },
          code: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
        },
        sidebar: { width: '280px' },
      },
    },
    root,
  )

  // The mobile menu's floating button (below 800 px wide) is a bare <div>:
  // name it and make it reachable from the keyboard, once Redoc has drawn it.
  function labelMenuButton() {
    var fab = root.querySelector('.menu-content + div')
    if (!fab) return false
    fab.setAttribute('role', 'button')
    fab.setAttribute('tabindex', '0')
    fab.setAttribute('aria-label', 'Menu')
    fab.addEventListener('keydown', function (event) {
      if (event.key !== 'Enter' && event.key !== ' ') return
      event.preventDefault()
      fab.click()
    })
    return true
  }
  var observer = new MutationObserver(function () {
    if (labelMenuButton()) observer.disconnect()
  })
  observer.observe(root, { childList: true, subtree: true })
})()
