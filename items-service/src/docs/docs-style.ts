import { raw } from 'hono/html'

/**
 * The docs page's whole stylesheet, inlined so the page needs no other request. The page's
 * Content-Security-Policy allows it by a hash taken from this very text when the app is built.
 */
export const docsStyle = raw(`
body{margin:0;background:#f6f7f9;color:#1d2433;font:16px/1.45 system-ui,sans-serif}
main{max-width:60rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1 small{font-size:1rem;color:#5b6478;font-weight:normal}
.card{background:#fff;border:1px solid #dde1e8;border-radius:10px;padding:.75rem 1.25rem;margin:0 0 1rem}
h3{margin:.25rem 0 .5rem;font-size:1.05rem}
table{border-collapse:collapse;width:100%}
td{border-top:1px solid #dde1e8;padding:.35rem .5rem;vertical-align:top}
code{font-family:ui-monospace,Menlo,monospace;font-size:.9em}
.method{display:inline-block;min-width:4.5rem;text-align:center;border-radius:6px;padding:.1rem .5rem;color:#fff;font-size:.85rem}
.get{background:#2f7d4f}.post{background:#3557d6}.put{background:#a86400}.delete{background:#c0392b}.patch{background:#6b4fbf}
a{color:#3557d6}
`)
