// The header's account part (js/main.js puts it in the top bar): "Sign in" for a guest; for a signed-in
// browser the account's name, a button that opens a small menu (Profile, Account, Moderation for a moderator, Sign
// out: whether the account is a moderator comes from GET /api/account, asked once per account). The menu is a disclosure:
// the button says whether it is open (aria-expanded), Escape and a click or the focus elsewhere close it.
// Nothing shows while this server has no accounts (js/core/accounts.js `available`).
import { h, replace } from '../core/dom.js';
import { t } from '../core/i18n/index.js';
import { accountPath, moderationPath, profilePath, signInPath } from '../core/route.js';
import { errorText } from '../core/errors.js';

/**
 * `accounts` (js/core/accounts.js); `notify(text, kind)`; `onSignedOut()` after "Sign out" worked. Returns {el,
 * relabel(), update(), setReturnPath(path)}: update() after a change of who is signed in, setReturnPath with the
 * page's path after each route (where "Sign in" comes back to).
 */
export function createAccountMenu({ accounts, notify, onSignedOut = () => {} }) {
  const listId = 'account-menu-list';
  const signIn = h('a', { class: 'topbar-link sign-in-link', href: signInPath(), 'data-link': '', 'data-testid': 'sign-in-link' });
  const nameText = h('span', { class: 'account-name', 'data-testid': 'account-name' });
  const toggle = h('button', {
    type: 'button', class: 'account-toggle', 'aria-expanded': 'false', 'aria-controls': listId, 'data-testid': 'account-menu',
    onclick: () => setOpen(list.hidden),
  }, h('span', { class: 'account-icon', 'aria-hidden': 'true' }), nameText, h('span', { class: 'account-caret', 'aria-hidden': 'true' }));
  const profileLink = h('a', {
    class: 'account-menu-item', href: '/', 'data-link': '', 'data-testid': 'profile-link',
    onclick: () => setOpen(false),
  });
  const accountLink = h('a', {
    class: 'account-menu-item', href: accountPath, 'data-link': '', 'data-testid': 'account-link',
    onclick: () => setOpen(false),
  });
  const moderationLink = h('a', {
    class: 'account-menu-item', href: moderationPath, 'data-link': '', 'data-testid': 'moderation-link',
    onclick: () => setOpen(false),
  });
  const moderationItem = h('li', { hidden: true }, moderationLink);
  let moderatorOf = null; // the account id whose role was asked
  const signOut = h('button', { type: 'button', class: 'account-menu-item', 'data-testid': 'sign-out', onclick: () => doSignOut() });
  const list = h('ul', { id: listId, class: 'account-menu-list', hidden: true }, h('li', null, profileLink), h('li', null, accountLink),
    moderationItem, h('li', null, signOut));
  const menu = h('div', { class: 'account-menu' }, toggle, list);
  const el = h('div', { class: 'account-slot', 'data-testid': 'account-slot' });

  function setOpen(open, { focus = false } = {}) {
    list.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
    if (open && focus) profileLink.focus();
  }

  menu.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !list.hidden) {
      e.stopPropagation();
      setOpen(false);
      toggle.focus();
    } else if (e.key === 'ArrowDown' && e.target === toggle) {
      e.preventDefault();
      setOpen(true, { focus: true });
    }
  });
  menu.addEventListener('focusout', (e) => {
    if (!list.hidden && e.relatedTarget && !menu.contains(e.relatedTarget)) setOpen(false);
  });
  document.addEventListener('click', (e) => {
    if (!list.hidden && !menu.contains(e.target)) setOpen(false);
  });

  async function doSignOut() {
    signOut.disabled = true;
    try {
      await accounts.signOut();
      notify(t('account.signedOut'), 'info');
    } catch (err) {
      notify(errorText(err), 'error');
    } finally {
      signOut.disabled = false;
      setOpen(false);
      onSignedOut();
    }
  }

  function update() {
    if (!accounts.available || !accounts.known) {
      replace(el);
      return;
    }
    if (accounts.account) {
      nameText.textContent = accounts.account.name;
      profileLink.href = profilePath(accounts.account.name);
      toggle.setAttribute('aria-label', t('account.menu.label', { name: accounts.account.name }));
      if (menu.parentNode !== el) replace(el, menu);
      askRole(accounts.account.id);
    } else {
      setOpen(false);
      if (signIn.parentNode !== el) replace(el, signIn);
    }
  }

  /** Shows "Moderation" to a moderator (GET /api/account says so), asked once per account. */
  function askRole(id) {
    if (moderatorOf === id) return;
    moderatorOf = id;
    moderationItem.hidden = true;
    accounts.get('/api/account').then((reply) => {
      if (moderatorOf === id) moderationItem.hidden = !(reply.account && reply.account.moderator);
    }, () => { if (moderatorOf === id) moderatorOf = null; });
  }

  function setReturnPath(path) {
    signIn.href = signInPath(path);
  }

  function relabel() {
    signIn.textContent = t('account.signIn');
    profileLink.textContent = t('account.menu.profile');
    accountLink.textContent = t('account.menu.account');
    moderationLink.textContent = t('account.menu.moderation');
    signOut.textContent = t('account.signOut');
    update();
  }

  relabel();
  return { el, relabel, update, setReturnPath };
}
