// The results of a finished rated table: each rated person's change ("+23 → 1023", js/models/ratings.js), from
// the table's `rating_changes`, which the server sends once the update is stored; until then "Updating the
// ratings…". Hidden at casual and running tables.
import { h, replace } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { changesPending, ratingChanges, ratingText } from '../../models/ratings.js';
import { initialSwatch, youTag } from '../../ui/seat-marks.js';
import { deltaMark, playerName } from '../../ui/rating-mark.js';

export function createRatingChanges() {
  const el = h('section', { class: 'card rating-changes', 'aria-labelledby': 'rating-changes-h', hidden: true, 'data-testid': 'rating-changes' });

  /** `me` is the viewer's seat (null unless seated). */
  function render({ info, me }) {
    const changes = ratingChanges(info, me);
    const pending = changesPending(info);
    el.hidden = changes.length === 0 && !pending;
    if (el.hidden) { replace(el); return; }
    const heading = h('h2', { id: 'rating-changes-h' }, t('rating.changes.heading'));
    if (changes.length === 0) {
      replace(el, heading, h('p', { class: 'hint', role: 'status' }, t('rating.changes.pending')));
      return;
    }
    replace(el, heading, h('ul', { class: 'rating-change-list' }, changes.map((c) => h('li', {
      class: ['rating-change', c.you ? 'is-me' : ''], 'data-seat': String(c.seat),
    },
    initialSwatch(c.seat, c.name),
    h('span', { class: 'player-name' }, c.name ? playerName(c.name, true) : t('common.player', { n: c.seat + 1 }), c.you ? youTag() : null),
    deltaMark(c.delta),
    h('span', { class: 'rating-after', 'data-testid': 'rating-after' },
      t(c.provisional ? 'rating.changes.nowProvisional' : 'rating.changes.now', { value: ratingText({ value: c.after, provisional: false }) }))))));
  }

  return { el, render };
}
