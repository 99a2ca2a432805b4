// The marks of rated play wherever a seat or a table is drawn (the lobby, the table's seat lists, its
// results): a seat's rating beside its name ("1234", "1000?" while provisional, a bot's fixed number marked as
// such), the name as a link to the player's profile, the table's "Rated"/"Casual" badge, and a change ("+23").
// js/models/ratings.js decides; this draws.
import { h } from '../core/dom.js';
import { t } from '../core/i18n/index.js';
import { profilePath } from '../core/route.js';
import { deltaKind, deltaText, isRated, ratingText } from '../models/ratings.js';

/** A rating ({value, provisional, bot?}) as a small mark, its meaning in words for screen readers and on hover; null for none. */
export function ratingMark(rating) {
  if (!rating) return null;
  const value = ratingText({ value: rating.value, provisional: false });
  let words;
  if (rating.bot) words = t('rating.botLabel', { value });
  else if (rating.provisional) words = t('rating.provisionalLabel', { value });
  else words = t('rating.label', { value });
  return h('span', {
    class: ['rating-mark', rating.provisional ? 'is-provisional' : '', rating.bot ? 'is-bot' : ''],
    title: words, 'data-testid': 'seat-rating',
  }, h('span', { 'aria-hidden': 'true' }, ratingText(rating), rating.bot ? h('span', { class: 'rating-fixed' }, t('rating.fixed')) : null),
  h('span', { class: 'visually-hidden' }, words));
}

/** A player's name, linked to their profile when `linked`. */
export function playerName(name, linked) {
  return linked ? h('a', { class: 'player-link', href: profilePath(name), 'data-link': '' }, name) : name;
}

/** "Rated" or "Casual" for a table object that says (an older server's say nothing: no badge). */
export function ratedBadge(table) {
  if (!table || typeof table.rated !== 'boolean') return null;
  return isRated(table)
    ? h('span', { class: 'badge badge--rated', 'data-testid': 'table-rated' }, t('rating.rated'))
    : h('span', { class: 'badge badge--casual', 'data-testid': 'table-rated' }, t('rating.casual'));
}

/** A change of rating, "+23" coloured by its direction, with its words for screen readers. */
export function deltaMark(delta) {
  const text = deltaText(delta);
  return h('span', { class: ['rating-delta', `is-${deltaKind(delta)}`], 'data-testid': 'rating-delta' },
    h('span', { 'aria-hidden': 'true' }, text), h('span', { class: 'visually-hidden' }, t('rating.deltaLabel', { delta: text })));
}
