// The entry point: the page header with the connection indicator, the account (js/ui/account-menu.js), the
// language picker, notices, and the router. Nothing is drawn before the chosen language's catalog is loaded (js/ui/language-picker.js); a
// change of language re-labels the header and asks the current screen to re-render in place
// (`relabel()`), so the connection, the table and what the player typed stay.
//   /            lobby (js/pages/lobby.js)
//   /t/<id>      table (js/pages/table.js)
//   /i/<invite>  table through an invite link
//   /t/<id>/replay  a finished game move by move (js/pages/replay.js)
//   /my-games    the games this browser plays or played (js/pages/my-games.js)
//   /account     the signed-in account (js/pages/account.js)
//   /account/sign-in, /account/sign-up  signing in or up (js/pages/sign-in.js)
//   /u/<name>    a player's profile (js/pages/profile.js)
//   /leaderboard/<game>  a game's leaderboard (js/pages/leaderboard.js)
//   /moderation  the open reports, for moderators (js/pages/moderation.js)
// Who is signed in comes from GET /api/session at start (js/core/accounts.js) and from each hello; a change of it
// (signing in or out here, or a session that ended elsewhere) opens the WebSocket again, whose upgrade reads
// the session cookie, and redraws the header.
import { Connection, State, wsUrl } from './core/connection.js';
import { Store } from './core/store.js';
import { parseRoute, myGamesPath, safeNext } from './core/route.js';
import { Accounts } from './core/accounts.js';
import { Friends } from './ui/friends.js';
import { t } from './core/i18n/index.js';
import { h, replace } from './core/dom.js';
import { mountLobby } from './pages/lobby.js';
import { mountTable } from './pages/table.js';
import { mountMyGames } from './pages/my-games.js';
import { mountReplay } from './pages/replay.js';
import { mountAccount } from './pages/account.js';
import { mountSignIn } from './pages/sign-in.js';
import { mountProfile } from './pages/profile.js';
import { mountLeaderboard } from './pages/leaderboard.js';
import { mountModeration } from './pages/moderation.js';
import { createModerationNotice } from './ui/moderation-notice.js';
import { createAccountMenu } from './ui/account-menu.js';
import { createThemeSwitch } from './ui/theme-switch.js';
import { createLanguagePicker, startLanguage } from './ui/language-picker.js';
import { createInvitationNotices } from './ui/invitation-notices.js';
import { gameName, gamesReady } from '../games/registry.js';

function storage(name) {
  try {
    const s = window[name];
    s.getItem('emporium.probe');
    return s;
  } catch {
    return null; // blocked (private mode, policies): the store keeps things in memory
  }
}

const store = new Store(storage('localStorage'), storage('sessionStorage'));
const accounts = new Accounts();
const accountsKnown = accounts.start();
// The strings, and what the games' models need before any events come (Merkator's data file), both before the
// connection opens.
await Promise.all([startLanguage(store), gamesReady()]);
// The header says who is signed in from the start; a slow answer does not hold the page up for long.
await Promise.race([accountsKnown, new Promise((resolve) => { setTimeout(resolve, 1500); })]);
// A guest says hello with the name chosen, else the one the server gave the first time (kept: see 'ready').
const conn = new Connection({ url: wsUrl(location), name: () => store.helloName() });
// Friends and invitations (js/ui/friends.js) come on the app-wide connection, whatever the page.
const friends = new Friends(conn);
const app = document.getElementById('app');
const topbar = document.getElementById('topbar');
const notices = document.getElementById('notices');

// ---- header and connection indicator ----
const connText = h('span', { class: 'conn-text' });
const connBox = h('div', { class: 'conn', role: 'status', 'data-testid': 'connection' },
  h('span', { class: 'dot', 'aria-hidden': 'true' }), connText);
const retry = h('button', { type: 'button', class: 'btn subtle small', hidden: true, onclick: () => conn.reconnectNow() });
const who = h('span', { class: 'who', 'data-testid': 'my-name' });
const theme = createThemeSwitch({ store });
const languagePicker = createLanguagePicker({ store, onChange: relabel, notify });
const skip = h('a', { class: 'skip', href: '#app' });
const brandName = h('span', { class: 'brand-name' });
const brand = h('a', { class: 'brand', href: '/', 'data-link': '' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }), brandName);
const myGamesLink = h('a', { class: 'topbar-link', href: myGamesPath, 'data-link': '', 'data-testid': 'nav-my-games' });
const accountMenu = createAccountMenu({ accounts, notify });
replace(topbar, skip, brand,
  h('div', { class: 'topbar-right' }, myGamesLink, who, accountMenu.el, languagePicker.el, theme.el, connBox, retry));

/** The header's words in the current language. */
function labelTopbar() {
  skip.textContent = t('app.skip');
  brand.setAttribute('aria-label', t('app.home'));
  brandName.textContent = t('app.name');
  myGamesLink.textContent = t('myGames.link');
  retry.textContent = t('conn.retry');
  theme.relabel();
  languagePicker.relabel();
  accountMenu.relabel();
}
labelTopbar();

let countdown = null;
function showConnection() {
  const { state } = conn;
  connBox.dataset.state = state;
  let text;
  if (state === State.open) text = t('conn.open');
  else if (state === State.connecting) text = t('conn.connecting');
  else if (state === State.offline) text = t('conn.offline');
  else {
    const seconds = Math.max(0, Math.ceil(((conn.retryAt || 0) - Date.now()) / 1000));
    text = seconds > 0 ? t('conn.reconnecting', { seconds }) : t('conn.reconnectingNow');
  }
  if (connText.textContent !== text) connText.textContent = text;
  connBox.setAttribute('aria-label', t('conn.label', { state: text }));
  retry.hidden = state === State.open || state === State.connecting;
  // A guest's name; a signed-in browser's is the account menu's.
  who.textContent = state === State.open && conn.name && !accounts.account ? conn.name : '';
}
conn.on('state', ({ state }) => {
  showConnection();
  clearInterval(countdown);
  if (state === State.waiting) countdown = setInterval(showConnection, 1000);
});

// ---- who is signed in ----
const idOf = (account) => (account ? account.id : null);
let reconnectedForAccount = false; // one new connection per disagreement, not a loop
conn.on('ready', async () => {
  if (!conn.account) store.keepGuestName(conn.name);
  showConnection();
  if (!accounts.known || !accounts.available) return;
  if (idOf(conn.account) === idOf(accounts.account)) {
    reconnectedForAccount = false;
    return;
  }
  // The connection says otherwise than the page (a session ended elsewhere, or a sign-in raced the connection):
  // ask again; a change reconnects (below), and a connection older than the cookie is opened again once.
  try {
    await accounts.refresh();
  } catch {
    return;
  }
  if (conn.ready && idOf(conn.account) !== idOf(accounts.account) && !reconnectedForAccount) {
    reconnectedForAccount = true;
    conn.reconnect('account');
  }
});
accounts.on(({ account }) => {
  accountMenu.update();
  showConnection();
  if (conn.ready && idOf(conn.account) !== idOf(account)) conn.reconnect('account');
});

// ---- notices ----
function notify(text, kind = 'info') {
  const close = h('button', { type: 'button', class: 'notice-close', 'aria-label': t('common.close') }, '×');
  const note = h('div', { class: `notice notice--${kind}` }, h('span', null, text), close);
  const remove = () => note.remove();
  close.addEventListener('click', remove);
  notices.append(note);
  setTimeout(remove, 7000);
  while (notices.children.length > 4) notices.firstChild.remove();
}

// ---- routing ----
let current = null;
let firstRoute = true;
function setTitle(text) {
  if (document.title !== text) document.title = text;
}
const ctx = { conn, store, navigate, notify, setTitle, accounts, friends };

// ---- invitations to tables: under the header, on every page ----
const invitations = createInvitationNotices({ friends, store, navigate, notify, gameTitle: (id) => gameName(id, conn.games || []) });
topbar.after(invitations.el);
// A moderator's decision about this account, on any page (js/ui/moderation-notice.js).
const moderationNotice = createModerationNotice({ conn });
invitations.el.after(moderationNotice.el);

function route({ again = false } = {}) {
  if (current) current.destroy();
  current = null;
  app.replaceChildren();
  const r = parseRoute(location.pathname, location.hash);
  // A table's page talks to its table's node when there are several (docs/scaling.md); else nothing changes.
  conn.setUrl(wsUrl(location, r.name === 'table' ? r.id : null));
  if (r.name === 'myGames' && location.pathname !== myGamesPath) history.replaceState(null, '', myGamesPath);
  if (r.name === 'lobby') current = mountLobby(app, ctx);
  else if (r.name === 'myGames') current = mountMyGames(app, ctx);
  else if (r.name === 'table') current = mountTable(app, ctx, { id: r.id });
  else if (r.name === 'invite') current = mountTable(app, ctx, { invite: r.code });
  else if (r.name === 'replay') current = mountReplay(app, ctx, { id: r.id });
  else if (r.name === 'account') current = mountAccount(app, ctx);
  else if (r.name === 'moderation') current = mountModeration(app, ctx);
  else if (r.name === 'profile') current = mountProfile(app, ctx, { player: r.player });
  else if (r.name === 'leaderboard') current = mountLeaderboard(app, ctx, { game: r.game });
  else if (r.name === 'signIn') current = mountSignIn(app, ctx, { mode: r.mode, next: safeNext(location.search) });
  else current = mountNotFound(app);
  // "Sign in" in the header comes back here (not to the sign-in or account pages themselves).
  if (r.name !== 'signIn' && r.name !== 'account') accountMenu.setReturnPath(location.pathname);
  if (!firstRoute && !again) {
    const heading = app.querySelector('h1');
    if (heading) heading.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }
  firstRoute = false;
}

/** A path that means nothing here. */
function mountNotFound(root) {
  const render = () => {
    setTitle(t('app.name'));
    replace(root, h('div', { class: 'card' }, h('h1', { tabindex: '-1' }, t('table.notFound')),
      h('a', { href: '/', 'data-link': '', class: 'btn' }, t('common.back'))));
  };
  render();
  return { destroy() {}, relabel: render };
}

/** After a change of language: the header, then the current screen in place (or mounted again if it cannot). */
function relabel() {
  labelTopbar();
  invitations.render();
  moderationNotice.render();
  showConnection();
  if (current && current.relabel) current.relabel();
  else route({ again: true });
}

function navigate(path, { replace: replaceState = false } = {}) {
  if (replaceState) history.replaceState(null, '', path);
  else if (path !== location.pathname + location.search) history.pushState(null, '', path);
  route();
}

document.addEventListener('click', (e) => {
  const a = e.target.closest && e.target.closest('a[data-link]');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  if (a.origin !== location.origin) return;
  e.preventDefault();
  navigate(a.pathname + a.search);
});
window.addEventListener('popstate', () => route());
window.addEventListener('online', () => conn.setBrowserOnline(true));
window.addEventListener('offline', () => conn.setBrowserOnline(false));
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState !== 'visible') return;
  conn.reconnectNow();
  // Signed out elsewhere meanwhile ("sign out everywhere" on another device)? The header follows.
  if (accounts.known && accounts.available) accounts.refresh().catch(() => {});
});

// A handle for debugging in the console and for the browser tests.
window.emporium = { conn, store, accounts, friends };

showConnection();
route();  // first: it points the connection at the page's table (setUrl) before the connection opens
conn.start();
