// The your-turn signals on the table page (js/models/attention-rules.js decides; js/core/store.js remembers): a
// "Sound on your turn" switch (off until turned on; a short tone made with WebAudio, no file) and
// "Notify me", which asks the browser's permission only when pressed, and only once. A
// notification is shown only while the tab is hidden.
import { h, replace } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { turnBegan, signals, notifyControl } from '../../models/attention-rules.js';

const Notice = typeof window !== 'undefined' && 'Notification' in window ? window.Notification : null;
let audio = null; // one AudioContext per page, made on the player's click (browsers allow it then)

function audioContext() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!audio) audio = new Ctx();
  return audio;
}

/** Two short rising notes, quiet. */
export function playTone() {
  const ctx = audioContext();
  if (!ctx) return;
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  const start = ctx.currentTime + 0.02;
  [[660, 0], [880, 0.14]].forEach(([freq, offset]) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = 'sine';
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, start + offset);
    gain.gain.exponentialRampToValueAtTime(0.18, start + offset + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.13);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start + offset);
    osc.stop(start + offset + 0.15);
  });
}

const permission = () => (Notice ? Notice.permission : 'unsupported');

/** `store` keeps the choices. */
export function createAttention({ store }) {
  const el = h('div', { class: 'attention', role: 'group', 'aria-label': t('attention.heading'), hidden: true });
  let wasMine = false;
  let shown = false;

  function render() {
    const a = store.attention();
    const state = notifyControl({ permission: permission(), asked: a.asked, notify: a.notify });
    const sound = h('label', { class: 'switch' },
      h('input', {
        type: 'checkbox', checked: a.sound, 'data-testid': 'sound-toggle',
        onchange: (e) => {
          store.setAttention({ sound: e.target.checked });
          if (e.target.checked) playTone(); // a sample, and it unlocks audio for later turns
        },
      }), t('attention.sound'));
    let notify = null;
    if (state === 'ask' || state === 'off') {
      notify = h('button', {
        type: 'button', class: 'btn small', 'data-testid': 'notify-me', title: t('attention.notifyHint'),
        onclick: async () => {
          if (state === 'ask') {
            store.setAttention({ asked: true });
            let answer = 'default';
            try { answer = await Notice.requestPermission(); } catch { /* old browsers: callback form */ }
            store.setAttention({ notify: answer === 'granted' });
          } else {
            store.setAttention({ notify: true });
          }
          render();
        },
      }, state === 'ask' ? t('attention.notify') : t('attention.notifyOff'));
    } else if (state === 'on') {
      notify = h('span', { class: 'attention-on' }, t('attention.notifyOn'), ' ',
        h('button', { type: 'button', class: 'btn subtle small', onclick: () => { store.setAttention({ notify: false }); render(); } }, t('attention.notifyStop')));
    } else if (state === 'denied') {
      notify = h('span', { class: 'hint' }, t('attention.notifyDenied'));
    }
    replace(el, sound, notify);
  }

  /**
   * Called on every render of the table: `seated` whether the viewer plays here, `mine` whether it
   * is their turn, `game` the game's name for the notification, `tableId` to tag it.
   */
  function update({ seated, mine, game, tableId }) {
    el.hidden = !seated;
    if (seated && !shown) render();
    shown = seated;
    const began = turnBegan(wasMine, mine);
    wasMine = Boolean(mine);
    const a = store.attention();
    const out = signals({ began, sound: a.sound, notify: a.notify, permission: permission(), hidden: document.visibilityState === 'hidden' });
    if (out.sound) playTone();
    if (out.notification) {
      try {
        const n = new Notice(t('attention.notification.title'), { body: t('attention.notification.body', { game }), tag: `emporium-turn-${tableId}` });
        n.onclick = () => { window.focus(); n.close(); };
      } catch { /* some browsers only notify from a service worker */ }
    }
  }

  /** After a change of language: the group's name and the switches in the new words. */
  function relabel() {
    el.setAttribute('aria-label', t('attention.heading'));
    if (shown) render();
  }

  return { el, update, relabel };
}
