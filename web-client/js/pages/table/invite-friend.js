// "Invite a friend" at a waiting table, for a signed-in player seated there: a select of their friends (online
// ones first) and Invite; then "Invitation sent to Bo", the refusal in words, or, when Bo says no, "Bo declined".
// Not shown to guests, watchers, or once the game has started.
import { h, replace, keepFocus } from '../../core/dom.js';
import { t, language } from '../../core/i18n/index.js';
import { errorText } from '../../core/errors.js';
import { formStatus } from '../../ui/form-status.js';
import { inviteChoices, presenceWords } from '../../models/friends-model.js';

/** `gameTitle(id)` names a game. Returns {el, render(props), destroy}; props: {info, me} (`me`: the viewer's seat or null). */
export function createInviteFriend({ friends, gameTitle }) {
  const el = h('section', { class: 'card invite-friend', 'aria-labelledby': 'invite-friend-h', hidden: true, 'data-testid': 'invite-friend' });
  const status = formStatus('invite-friend-status');
  let props = { info: null, me: null };
  let chosen = ''; // the friend chosen, kept across renders
  let drawn = ''; // what was drawn last: a table frame that changes none of it leaves an open select alone
  let busy = false;

  async function send(table) {
    const name = chosen;
    if (!name || busy) return;
    busy = true;
    status.set('busy', () => t('friends.invite.sending'));
    try {
      const reply = await friends.invite(table, name);
      status.set('ok', () => t('friends.invite.sent', { name: reply.name || name }));
    } catch (err) {
      status.set('error', () => errorText(err, 'friends'));
    } finally {
      busy = false;
    }
  }

  function render(next = props) {
    props = next;
    const { info, me } = props;
    const show = friends.signedIn && Boolean(info) && info.state === 'waiting' && me !== null && me !== undefined;
    el.hidden = !show;
    if (!show) {
      drawn = '';
      replace(el);
      return;
    }
    const choices = inviteChoices(friends.state);
    if (!choices.some((f) => f.name === chosen)) chosen = choices.length ? choices[0].name : '';
    const key = JSON.stringify([info.id, language(), chosen, choices]);
    if (key === drawn) return;
    drawn = key;
    const select = h('select', {
      id: 'invite-friend-name', 'data-testid': 'invite-friend-name', 'data-focus': 'invite-friend-name',
      onchange: (e) => { chosen = e.target.value; },
    }, choices.map((f) => h('option', { value: f.name, selected: f.name === chosen },
      `${f.name} — ${presenceWords(f.presence, { tr: t, lang: language(), gameTitle }).text}`)));
    keepFocus(el, () => replace(el,
      h('h2', { id: 'invite-friend-h' }, t('friends.invite.heading')),
      choices.length
        ? h('form', { class: 'inline-field', onsubmit: (e) => { e.preventDefault(); send(info.id); } },
          h('label', { for: 'invite-friend-name', class: 'visually-hidden' }, t('friends.invite.label')),
          select,
          h('button', { type: 'submit', class: 'btn', 'data-testid': 'invite-friend-send', 'data-focus': 'invite-friend-send' }, t('friends.invite.submit')))
        : h('p', { class: 'hint' }, t('friends.invite.none')),
      status.render()));
  }

  const offs = [
    friends.on('change', () => render()),
    friends.on('declined', ({ table, name }) => {
      if (props.info && table === props.info.id) status.set('error', () => t('friends.invite.declined', { name }));
    }),
  ];
  return { el, render, destroy: () => offs.forEach((off) => off()) };
}
