// Euthia: Fierce Powers — the view's `extra`: the Monster Attack as its dice are read (Combat Value,
// the attack range reached, which Monster die to re-roll next and why), the Combat Pool's Gaar and
// Chaos tokens, the Die of Hope, the Enemies and Rotting creatures, the Silver and Gold caches, a Hero
// Roll, and in Fellowship the round with its Leader and card. Called as render(extra, box, el, view)
// by spectator.js. Rows are short: the side panel cuts a row that does not fit its width.
(function () {
  'use strict';
  const plural = (n, one, many) => n + ' ' + (n === 1 ? one : many);
  const title = (s) => String(s).replace(/-/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

  function attackParts(a, el) {
    const out = [el('h3', { text: a.enemy + ' attacks ' + (a.targets || []).join(' and ') })];
    const rows = [];
    rows.push((a.dice || []).length ? 'Monster dice: ' + a.dice.join(' · ') : 'Monster dice: not read yet');
    rows.push(a.combat_die ? 'Combat die: ' + a.combat_die.map(title).join(' + ') : 'Combat die: not read yet');
    out.push(el('ul', { class: 'eu-dice' }, rows.map((r) => el('li', { text: r }))));
    if (a.cv !== undefined) {
      out.push(el('p', { class: 'eu-cv' }, el('strong', { text: 'Combat Value ' + a.cv })));
      out.push(el('ul', { class: 'eu-cv-parts' },
        el('li', { text: '= ' + String(a.sum).replace(/ = -?\d+$/, '') }),
        el('li', { text: a.band ? 'range ' + a.band + ' of ' + a.bands : 'below the first range' }),
        el('li', { text: 'highest range from ' + a.top })));
    }
    if (a.reroll) {
      const which = a.reroll.dice.map((d, i) => 'die ' + d + ' (' + a.reroll.values[i] + ')').join(' and ');
      out.push(el('p', { class: 'pending eu-reroll' }, el('span', { class: 'label', text: 'Re-roll Monster ' }), which));
      out.push(el('ul', { class: 'eu-why' }, String(a.reroll.why).split('; ').map((w) => el('li', { text: w }))));
    }
    if (a.chaos && a.chaos.cache) {
      out.push(el('p', { class: 'pending', text: 'Reveal the top ' + title(a.chaos.cache) + ' card' }));
      if (a.chaos.stack.length) out.push(el('p', { text: 'Stack: ' + a.chaos.stack.map(title).join(', ') }));
    }
    return out;
  }

  window.ArenaGames = window.ArenaGames || {};
  window.ArenaGames.euthia = function (extra, box, el) {
    const parts = [];
    const c = extra.combat;
    if (c && !c.over && c.attack) parts.push(...attackParts(c.attack, el));
    const hr = extra.hero_roll;
    if (hr) {
      parts.push(el('h3', { text: hr.hero + "'s Hero Roll (" + hr.purpose + ')' }));
      if (!hr.dice.length) parts.push(el('p', { class: 'pending', text: 'Roll the two Hero dice' }));
      else {
        const mods = (hr.mods || []).map(([m, why]) => (m > 0 ? '+ ' : '− ') + Math.abs(m) + ' ' + why);
        parts.push(el('ul', {}, [hr.dice.join(' + ')].concat(mods, ['= ' + hr.value + (hr.band ? ' · band ' + hr.band : '')])
          .map((r) => el('li', { text: r }))));
      }
    }
    if (c) {
      parts.push(el('h3', { text: c.over ? 'Combat ' + c.over : 'Combat round ' + c.round }));
      const pool = ['Gaar ' + c.gaar + ' · Chaos ' + c.chaos, 'Die of Hope ' + c.hope];
      if (c.power) pool.push(title(c.power) + ' hex');
      if (c.area) pool.push('Area Attack');
      parts.push(el('ul', { class: 'eu-pool' }, pool.map((r) => el('li', { text: r }))));
      parts.push(el('ul', { class: 'eu-enemies' }, (c.enemies || []).map((e) => el('li', {
        text: e.name + ': ' + (e.defeated ? 'defeated' : e.health + '/' + e.health_max) + (e.healing ? ' · token ' + e.healing : '') }))
        .concat((c.creatures || []).map((x) => el('li', { text: x.name + ': ' + x.health + ' · box ' + x.slot })))));
    }
    const k = extra.caches || {};
    parts.push(el('p', { class: 'eu-caches', text: 'Silver ' + (k.silver || 0) + ' · Gold ' + (k.gold || 0) + ' cached' }));
    if ((k.bottom || []).length) parts.push(el('p', { text: 'At the bottom: ' + k.bottom.map(([, t]) => title(t)).join(', ') }));
    const r = extra.round;
    if (r) {
      const card = r.card || {};
      const rows = ['Leader ' + r.leader, 'Exchange value ' + (card.exchange || 0)];
      if (card.health) rows.push('+' + card.health + ' Monster Health');
      if (card.injuries) rows.push('+' + plural(card.injuries, 'Injury', 'Injuries'));
      if (card.chaos_action) rows.push('+1 Chaos Action');
      if (card.enemy === 'area') rows.push('Area Attack');
      else if (card.enemy) rows.push('+1 Level ' + card.enemy + ' Monster');
      if (r.gave.length) rows.push('Gave: ' + r.gave.join(', '));
      if (r.move_tokens) rows.push(plural(r.move_tokens, 'Move token', 'Move tokens'));
      parts.push(el('h3', { text: 'Round ' + r.number + '/' + r.of }), el('ul', { class: 'eu-round' }, rows.map((x) => el('li', { text: x }))));
    }
    if ((extra.notices || []).length) {
      parts.push(el('ul', {}, extra.notices.slice(-2).map((n) => el('li', { class: 'notice', text: n }))));
    }
    box.replaceChildren(...parts);
  };
})();
