// The account page's "Notifications on this device": this browser's Web Push subscription (docs/push.md). On: the
// browser's permission asked, /sw.js registered, a subscription made with the server's key (GET /api/push/key) and
// sent to the server; off: unsubscribed here and removed there. Which notices come follows the e-mail preferences
// (account/email-settings.js). Hidden when the browser cannot take pushes or the server sends none.
import { h } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { errorText } from '../../core/errors.js';
import { formStatus } from '../../ui/form-status.js';
import { createActor } from './act.js';

const TOGGLE_ID = 'account-push-toggle';

export function pushSupported(w = globalThis) {
  return Boolean(w.navigator && 'serviceWorker' in w.navigator && 'PushManager' in w && 'Notification' in w);
}

/** The server's key (base64url) as PushManager.subscribe takes it. */
export function keyBytes(base64url) {
  const text = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(text + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function failure(code) {
  return Object.assign(new Error(code), { code });
}

/** `reload()` asks for the account again and draws the page, `redraw()` draws it from the last answer. */
export function createPushSettings({ accounts, reload, redraw }) {
  const status = formStatus('account-push-status');
  let subscribed = null; // whether this browser has a subscription (null: not known yet)
  let asking = false;
  let toggle = null; // the checkbox last drawn

  // The page is drawn again keeping the fields' states as they are (dom.js keepValues), and a state it puts back
  // fires `change`: the drawn checkbox is set to what is known first, so that no redraw turns anything on or off.
  function showKnown() {
    if (toggle) toggle.checked = Boolean(subscribed);
  }

  async function current() {
    const registration = await navigator.serviceWorker.getRegistration('/');
    return registration ? registration.pushManager.getSubscription() : null;
  }

  async function turnOn() {
    if (await Notification.requestPermission() !== 'granted') throw failure('permission_denied');
    const { key, available } = await accounts.pushKey();
    if (!available || !key) throw failure('push_off');
    await navigator.serviceWorker.register('/sw.js');
    const registration = await navigator.serviceWorker.ready;
    const subscription = await registration.pushManager.getSubscription()
      || await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
    await accounts.addPush(subscription.toJSON());
  }

  async function turnOff() {
    const subscription = await current();
    if (!subscription) return;
    const { endpoint } = subscription;
    await subscription.unsubscribe();
    try {
      await accounts.removePush(endpoint);
    } catch (err) {
      if (err.code !== 'not_found') throw err; // gone already (the push service said so)
    }
  }

  const act = createActor({
    status, reload, describe: (err) => errorText(err, 'account.push'),
    settle(err, { on }) {
      if (!err) subscribed = on;
      showKnown();
    },
  });

  /** Learns once whether this browser is subscribed, then draws the page again. */
  function learn() {
    if (asking || subscribed !== null) return;
    asking = true;
    current().then((s) => { subscribed = Boolean(s); }, () => { subscribed = false; })
      .finally(() => {
        asking = false;
        showKnown();
        redraw();
      });
  }

  function render(details) {
    const push = details.push;
    if (!push || !push.available || !pushSupported()) return null;
    learn();
    const denied = Notification.permission === 'denied';
    return h('section', { class: 'card account-section', 'aria-labelledby': 'push-h', 'data-testid': 'account-push' },
      h('h2', { id: 'push-h' }, t('account.push.heading')),
      h('p', { class: 'hint' }, t('account.push.intro')),
      h('div', { class: 'field field--check' },
        toggle = h('input', {
          type: 'checkbox', id: TOGGLE_ID, name: TOGGLE_ID, checked: Boolean(subscribed),
          disabled: subscribed === null || (denied && !subscribed), 'data-testid': TOGGLE_ID,
          onchange: (e) => {
            const on = e.currentTarget.checked;
            act(on ? turnOn : turnOff, { on, ok: () => t(on ? 'account.push.turnedOn' : 'account.push.turnedOff') });
          },
        }),
        h('label', { for: TOGGLE_ID, class: 'check-label' }, t('account.push.toggle'))),
      denied ? h('p', { class: 'hint', 'data-testid': 'account-push-denied' }, t('account.push.denied')) : null,
      h('p', { class: 'hint', 'data-testid': 'account-push-devices' },
        t('account.push.devices', { count: push.devices })),
      status.render());
  }

  return { render };
}
