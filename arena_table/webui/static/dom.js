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

  // shrinkToFit(e, fits, least): e's font size set (inline) to the largest at which fits() holds, down to
  // `least` times its own size; true when fits() holds then. Starts from e's own size on every call.
  function shrinkToFit(e, fits, least) {
    e.style.removeProperty('font-size');
    if (fits()) return true;
    let hi = parseFloat(getComputedStyle(e).fontSize);
    let lo = hi * least;
    e.style.fontSize = lo + 'px';
    if (!fits()) return false;
    while (hi - lo > 0.5) {  // half a pixel: a few layouts, a size nobody can tell from the best
      const mid = (lo + hi) / 2;
      e.style.fontSize = mid + 'px';
      if (fits()) lo = mid; else hi = mid;
    }
    e.style.fontSize = lo + 'px';
    return true;
  }

  window.ArenaDom = { el, shrinkToFit };
})();
