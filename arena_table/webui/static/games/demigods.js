// Demigods Evolution: the view's `extra` (notices, the attack waiting, who is next per player,
// formations). Called as render(extra, box, el, view) by spectator.js; characters are named as the
// view's order names them; unknown keys are left out, never guessed.
(function () {
  'use strict';
  const title = (id) => String(id).replace(/-/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
  const SMALL = new Set(['of', 'the', 'and', 'a', 'an', 'to', 'in', 'on']);
  // a skill's or item's id as its card names it, near enough: "scroll-of-damnation" -> "Scroll of Damnation"
  const cardName = (id) => title(id).split(' ').map((w, i) => (i && SMALL.has(w.toLowerCase()) ? w.toLowerCase() : w)).join(' ');
  const joined = (xs) => (xs.length < 2 ? xs.join('') : xs.slice(0, -1).join(', ') + ' and ' + xs[xs.length - 1]);
  const dieType = (d) => String(d.die || '').replace(/^dg-/, '');
  const result = (r) => (typeof r === 'number' ? (r > 0 ? '+' : '') + r : title(r));

  // "the ice, fire and slashing dice", "the 2 piercing dice", "the bludgeoning die"
  function diceWords(dice) {
    const counts = new Map();
    for (const d of dice) counts.set(dieType(d), (counts.get(dieType(d)) || 0) + 1);
    const kinds = [...counts].map(([type, n]) => (n > 1 ? n + ' ' : '') + type);
    return 'the ' + joined(kinds) + (dice.length > 1 ? ' dice' : ' die');
  }

  // A pending attack in plain words: [what is awaited, who attacks whom with what (and the dice rolled)].
  // The engine waits for the attack dice, for a defender's defence die (Master Armor), or for an
  // attack-linked attacker to re-roll or keep the roll; a retaliation is a pending attack of its own.
  function pendingWords(p, name) {
    if (typeof p === 'string') return [p, ''];
    const dice = Array.isArray(p.dice) ? p.dice : [];
    if (!p.attacker || !dice.length) return ['the table to finish this step', ''];
    const targets = joined((Array.isArray(p.targets) ? p.targets : []).map(name));
    const use = !p.use || p.use === 'attack' ? 'a base attack' : (p.use_name || cardName(p.use));
    const who = p.retaliation ? name(p.attacker) + ' retaliates against ' + targets + ' with ' + use
      : name(p.attacker) + (targets ? ' attacks ' + targets : ' attacks') + ' with ' + use;
    const rolled = dice.filter((d) => d.face).map((d) => (d.owner === 'attack' ? '' : name(d.owner) + "'s defence ")
      + dieType(d) + ' die: ' + (d.result !== null && d.result !== undefined ? result(d.result) : 'face ' + d.face));
    const context = [who].concat(rolled).join(' · ');
    const open = dice.filter((d) => !d.face);
    const attackDice = open.filter((d) => d.owner === 'attack');
    const defenders = [...new Set(open.filter((d) => d.owner !== 'attack').map((d) => d.owner))];
    const awaited = (attackDice.length ? [diceWords(attackDice)] : []).concat(defenders.map((o) => name(o) + "'s "
      + diceWords(open.filter((d) => d.owner === o)).replace(/^the /, '').replace(/ (die|dice)$/, ' defence $1')));
    if (awaited.length) return [joined(awaited), context];
    if (p.rerolls_left > 0) {
      const n = p.rerolls_left;
      return [name(p.attacker) + ' to re-roll ' + n + (n > 1 ? ' dice' : ' die') + ' (attack link) or keep the roll',
        context];
    }
    return ['the attack to be resolved', context];
  }

  window.ArenaGames = window.ArenaGames || {};
  window.ArenaGames.demigods = function (extra, box, el, view) {
    const names = new Map(((view && view.order) || []).map((o) => [o.id, o.name || title(o.id)]));
    const name = (id) => names.get(id) || title(id);
    const parts = [];
    if (extra.notices && extra.notices.length) {
      parts.push(el('h3', { text: 'Just now' }), el('ul', {}, extra.notices.slice(-4).map((n) => el('li', { class: 'notice', text: n }))));
    }
    if (extra.pending) {
      const [awaited, context] = pendingWords(extra.pending, name);
      // two rows the pager may show on two pages; the label inline, as a title could not share a page
      // with a long first row in the TV's short side panel
      parts.push(el('div', { class: 'pending-step', 'data-page-rows': true },
        el('p', { class: 'pending' }, el('span', { class: 'label', text: 'Waiting for ' }), awaited),
        context ? el('p', { class: 'pending-attack', text: context }) : null));
    }
    if (extra.youre_next && Object.keys(extra.youre_next).length) {
      parts.push(el('h3', { text: 'Next to act' }), el('ul', {}, Object.entries(extra.youre_next).map(([p, who]) =>
        el('li', { text: p + ': ' + (who ? name(who) : '—') }))));
    }
    if (extra.formations && Object.keys(extra.formations).length) {
      parts.push(el('h3', { text: 'Formations (front to back)' }), el('ul', {}, Object.entries(extra.formations).map(([p, heroes]) =>
        el('li', { text: p + ': ' + (heroes || []).map(name).join(' · ') }))));
    }
    if (extra.minion_turn) parts.push(el('p', { text: 'Minion turn: ' + (typeof extra.minion_turn === 'string' ? extra.minion_turn : JSON.stringify(extra.minion_turn)) }));
    box.replaceChildren(...parts);
  };
})();
