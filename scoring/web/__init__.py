"""Web plumbing and presentation: htmx, middleware, cached pages, uploads, the
service worker's needs, and the charts pages draw."""
