// The Now card's warnings: a figure on the table where the rules say it cannot be (put it back, or
// settle it there), a camera throw the game refused, and the roll it waits for.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const el = window.ArenaDom.el;
  const { act } = window.control;

  // a figure on the table where the rules say it cannot be: put it back, or settle it here
  function renderDesync() {
    const state = window.control.state;
    const refused = state && state.roll_refused;  // a camera throw the game did not take: throw what it waits for
    $('roll-refused').hidden = !refused;
    $('roll-refused').textContent = refused ? refused.message : '';
    $('awaits').hidden = !(state && state.awaits);
    $('awaits').textContent = state && state.awaits ? 'Waiting for ' + state.awaits : '';
    const off = (state && state.desync) || [];
    $('desync').hidden = !off.length;
    $('desync').replaceChildren(...off.map((d) => {
      const button = (text, kind, done) => {
        const b = el('button', { type: 'button', text });
        b.addEventListener('click', () => act('POST', '/api/events', { notation: kind + ' figure=' + d.figure }, () => done));
        return b;
      };
      return el('div', { class: 'desync-row' }, el('p', { text: d.message }),
        button('The table is right: ' + d.name + ' stays there', 'figure-confirm', 'Confirmed ' + d.name),
        button('The rules are right: ' + d.name + ' goes back', 'figure-override', 'Kept ' + d.name + ' where the rules have it'));
    }));
  }
  document.addEventListener('table-state', renderDesync);
})();
