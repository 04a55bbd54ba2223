// DOM helpers shared by the spectator screen and the control page (loaded before either).
(function () {
  'use strict';
  // el('li', {class: 'acting', text: 'Rochon'}, child, ...): an element with attributes and children;
  // null/undefined/false attributes and children are left out, true gives an empty attribute.
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') node.className = v;
      else if (k === 'text') node.textContent = v;
      else node.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  window.ArenaDom = { el };
})();
