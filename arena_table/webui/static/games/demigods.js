// Demigods Evolution: the view's `extra` (notices, who is next per player, formations).
// Called as render(extra, box, el) by spectator.js; unknown keys are left out, never guessed.
(function () {
  'use strict';
  const title = (id) => String(id).replace(/-/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
  window.ArenaGames = window.ArenaGames || {};
  window.ArenaGames.demigods = function (extra, box, el) {
    const parts = [];
    if (extra.notices && extra.notices.length) {
      parts.push(el('h3', { text: 'Just now' }), el('ul', {}, extra.notices.slice(-4).map((n) => el('li', { class: 'notice', text: n }))));
    }
    if (extra.pending) parts.push(el('h3', { text: 'Waiting for' }), el('p', { text: typeof extra.pending === 'string' ? extra.pending : JSON.stringify(extra.pending) }));
    if (extra.youre_next && Object.keys(extra.youre_next).length) {
      parts.push(el('h3', { text: 'Next to act' }), el('ul', {}, Object.entries(extra.youre_next).map(([p, who]) =>
        el('li', { text: p + ': ' + (who ? title(who) : '—') }))));
    }
    if (extra.formations && Object.keys(extra.formations).length) {
      parts.push(el('h3', { text: 'Formations (front to back)' }), el('ul', {}, Object.entries(extra.formations).map(([p, heroes]) =>
        el('li', { text: p + ': ' + (heroes || []).map(title).join(' · ') }))));
    }
    if (extra.minion_turn) parts.push(el('p', { text: 'Minion turn: ' + (typeof extra.minion_turn === 'string' ? extra.minion_turn : JSON.stringify(extra.minion_turn)) }));
    box.replaceChildren(...parts);
  };
})();
