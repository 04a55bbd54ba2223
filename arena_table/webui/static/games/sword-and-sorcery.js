// Sword & Sorcery (Clash of the Heroes): the view's `extra` — the Teams in the order of play with
// their Medals, which Heroes have activated this Round, Resurrection tokens and Kill Coins, a
// Tiebreaker Procedure under way, the areas' control and domination, and the Pitfalls. Called as
// render(extra, box, el, view) by spectator.js; Heroes are named as the view's order names them.
(function () {
  'use strict';
  const title = (id) => String(id).replace(/-/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
  const ROMAN = ['', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X'];

  window.ArenaGames = window.ArenaGames || {};
  window.ArenaGames['sword-and-sorcery'] = function (extra, box, el, view) {
    const names = new Map(((view && view.order) || []).map((o) => [o.id, o.name || title(o.id)]));
    const name = (id) => names.get(id) || title(id);
    const parts = [];
    const tb = extra.tiebreak;
    if (tb) {
      const rolled = (tb.rolls || []).map((r) => r.map(([t, n]) => t + ' ' + n).join(', ')).filter(Boolean);
      parts.push(el('div', { class: 'tiebreak', 'data-page-rows': true },
        el('p', { class: 'pending' }, el('span', { class: 'label', text: 'Tiebreaker: ' }),
          (tb.to_roll || []).join(', ') + ' roll 4 red dice'),
        rolled.length ? el('p', { text: 'Icons rolled: ' + rolled.join(' · ') }) : null));
    }
    const teams = (extra.teams || []).slice().sort((a, b) => (a.medal || 9) - (b.medal || 9));
    if (teams.length) {
      parts.push(el('h3', { text: 'Teams' }), el('ul', { class: 'teams' }, teams.map((t) => el('li', { 'data-team': t.name },
        el('strong', { class: 'medal', text: t.medal ? 'Medal ' + t.medal + ' · ' : '' }),
        el('span', { text: t.name + (t.allies && t.allies.length ? ' (allied with ' + t.allies.join(', ') + ')' : '') }),
        el('span', { class: 'tokens', text: ' · Resurrections ' + t.resurrections + ' · Kill Coins ' + t.kill_coins }),
        el('div', { class: 'activations', text: 'Activated: ' + ((t.activated || []).map(name).join(', ') || '—')
          + ' · Waiting: ' + ((t.waiting || []).map(name).join(', ') || '—') })))));
    }
    const held = (extra.areas || []).filter((a) => a.control || a.domination);
    if (held.length) {
      parts.push(el('h3', { text: 'Areas' }), el('ul', { class: 'areas' }, held.map((a) => el('li', { 'data-area': a.area,
        text: a.area + ': ' + (a.domination ? a.domination + ' dominates' : a.control + ' controls')
          + ' (' + Object.entries(a.counts || {}).map(([t, n]) => t + ' ' + n).join(' vs ') + ')' }))));
    }
    if ((extra.pitfalls || []).length) {
      parts.push(el('h3', { text: 'Pitfalls' }), el('ul', {}, extra.pitfalls.map((p) => el('li', {
        text: 'Pitfall ' + (ROMAN[p.number] || p.number) + ' on ' + p.area + (p.open ? '' : ' (closed)')
          + (p.blade ? ' · Blade in ' + p.blade : '') }))));
    }
    const info = [extra.quest, extra.act ? 'ACT ' + extra.act : '', extra.day_night || ''].filter(Boolean).join(' · ');
    if (info) parts.push(el('p', { class: 'quest', text: info }));
    box.replaceChildren(...parts);
  };
})();
