// The service worker (docs/push.md): shows the server's Web Push notifications and opens their page when one is
// clicked. A push's message is {"title","body","url"}, made by the server from what the matching mail says first.
// It caches nothing: the client's files are served fresh (no-cache) as before.
const ORIGIN = self.location.origin;

/** The page a push opens, always on this site: a link's path on this origin (its own may be another name of it). */
function pageOf(url) {
  try {
    const u = new URL(String(url || '/'), ORIGIN);
    return ORIGIN + u.pathname + u.search + u.hash;
  } catch {
    return `${ORIGIN}/`;
  }
}

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : '' };
  }
  const url = pageOf(message.url);
  const title = typeof message.title === 'string' && message.title ? message.title : 'Emporium';
  // One notification per page: a newer one about the same table replaces the older.
  event.waitUntil(self.registration.showNotification(title, {
    body: typeof message.body === 'string' ? message.body : '', tag: url, data: { url },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = pageOf(event.notification.data && event.notification.data.url);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const open = windows.find((w) => w.url === url);
    if (open) return open.focus();
    return self.clients.openWindow(url);
  })());
});
