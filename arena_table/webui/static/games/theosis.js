// Theosis: the view's `extra` (initiative, players' gold/hand/rituals, monsters); the Alignment tracks
// are the view's `tracks`, drawn as a picture beside the board.
// Called as render(extra, box, el) by spectator.js; hidden information never reaches the page
// (the spectator view carries counts, not cards).
(function () {
  'use strict';
  window.ArenaGames = window.ArenaGames || {};
  window.ArenaGames.theosis = function (extra, box, el) {
    const parts = [];
    if (extra.initiative) parts.push(el('p', {}, el('strong', { text: 'Initiative: ' }), extra.initiative));
    const players = extra.players || [];
    if (players.length) {
      parts.push(el('table', {}, el('thead', {}, el('tr', {}, ['Player', 'Gold', 'Hand', 'Rituals'].map((h) => el('th', { scope: 'col', text: h })))),
        el('tbody', {}, players.map((p) => el('tr', {}, el('td', { text: p.id + (p.team && p.team !== p.id ? ' (' + p.team + ')' : '') }),
          el('td', { text: p.gold }), el('td', { text: p.hand }), el('td', { text: (p.rituals || []).length }))))));
    }
    const monsters = extra.monsters || [];
    if (monsters.length) {
      parts.push(el('h3', { text: 'Monsters' }), el('ul', {}, monsters.map((m) => el('li', {
        text: (m.name || m.id) + (m.health !== undefined ? ' — ' + m.health + (m.health_max ? ' / ' + m.health_max : '') + ' health' : '') }))));
    }
    box.replaceChildren(...parts);
  };
})();
