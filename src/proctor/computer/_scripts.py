"""JavaScript the browser computer evaluates in pages, one named snippet each."""

FOCUSED_JS = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const name = e.getAttribute('aria-label') || e.name || e.id || '';
  return `${e.tagName.toLowerCase()}${name ? ' ' + name : ''}`;
}"""

DOWNLOAD_LINK_JS = "(els) => els.length === 1 && !!els[0].closest('a[download]')"

POPUP_WATCH_JS = """(() => {
  // Counts the popups this document starts, so the harness knows a new tab is coming.
  if (window.__proctorPopups !== undefined) return;
  window.__proctorPopups = 0;
  const opens = (name) => {
    name = (name || '').toLowerCase();
    if (!name || ['_self', '_parent', '_top'].includes(name)) return false;
    return name === '_blank' || !document.querySelector(`iframe[name="${CSS.escape(name)}"]`);
  };
  const onClick = (e) => {
    const link = e.target instanceof Element ? e.target.closest('a[href]') : null;
    if (!link || e.defaultPrevented || link.href.startsWith('javascript:')) return;
    const modified = e.ctrlKey || e.metaKey || e.shiftKey || e.button === 1;
    if (modified || opens(link.target)) window.__proctorPopups++;
  };
  window.addEventListener('click', onClick);
  window.addEventListener('auxclick', (e) => { if (e.button === 1) onClick(e); });
  window.addEventListener('submit', (e) => {
    if (!e.defaultPrevented && opens(e.target.getAttribute('target'))) window.__proctorPopups++;
  });
  const open = window.open;
  window.open = function (...args) { window.__proctorPopups++; return open.apply(this, args); };
})()"""

TAKE_POPUPS_JS = """() => {
  const n = window.__proctorPopups || 0;
  window.__proctorPopups = 0;
  return n;
}"""

LEAVE_WATCH_JS = """(() => {
  // Notes that this document is leaving (a form submitted here, a link followed, a
  // scripted navigation), so the harness waits for a frame's next document.
  if (window.__proctorLeaving !== undefined) return;
  window.__proctorLeaving = false;
  window.__proctorSubmits = [];
  window.addEventListener('submit', (e) => {
    const target = (e.target.getAttribute('target') || '').toLowerCase();
    if (!target || target === '_self') window.__proctorSubmits.push(e);
  });
  if (window.navigation) {
    window.navigation.addEventListener('navigate', (e) => {
      if (!e.hashChange && !e.downloadRequest && !e.destination.sameDocument) {
        window.__proctorLeaving = true;
      }
    });
  }
})()"""

TAKE_LEAVING_JS = """() => {
  // A submit counts once its dispatch is over and nothing prevented it.
  const submitted = (window.__proctorSubmits || []).some((e) => !e.defaultPrevented);
  const leaving = window.__proctorLeaving || submitted;
  window.__proctorLeaving = false;
  window.__proctorSubmits = [];
  return leaving;
}"""

MARK_JS = """(e) => {
  const m = e.closest('[data-proctor-sensitive]');
  return m ? m.getAttribute('data-proctor-sensitive') : null;
}"""

ENTER_MARK_JS = """(e) => {
  if (!e) return null;
  const own = e.closest('[data-proctor-sensitive]');
  if (own) return own.getAttribute('data-proctor-sensitive');
  if (!(e instanceof HTMLInputElement) || !e.form) return null;
  const submit = e.form.querySelector(
    'button[type=submit], button:not([type]), input[type=submit], input[type=image]');
  const mark = submit ? submit.closest('[data-proctor-sensitive]') : null;
  return mark ? mark.getAttribute('data-proctor-sensitive') : null;
}"""

TEXT_JS = "() => document.body ? document.body.innerText : ''"

POINT_JS = "([x, y]) => document.elementFromPoint(x, y)"

DESCRIBE_JS = """(e) => {
  const tag = e.tagName.toLowerCase();
  const text = (e.getAttribute('aria-label') || e.innerText || e.value || '').trim().slice(0, 60);
  return text ? `${tag} '${text}'` : tag;
}"""

PADDING_OFFSET_JS = """(e, [x, y]) => {
  // Relative to the padding box, measured the way Playwright's click(position) adds it back.
  const r = e.getBoundingClientRect();
  const s = getComputedStyle(e);
  return {x: x - r.left - (parseInt(s.borderLeftWidth, 10) || 0),
          y: y - r.top - (parseInt(s.borderTopWidth, 10) || 0)};
}"""

INNER_BOX_JS = """(e) => {
  const r = e.getBoundingClientRect();
  return {x: r.left + e.clientLeft, y: r.top + e.clientTop};
}"""

SCROLL_SETTLE_JS = """(point) => new Promise(resolve => {
  // The page's scroll position, and with a point [x, y] every scroll box above the
  // element there too (a wheel at a point scrolls the innermost box that can move).
  const hit = point ? document.elementFromPoint(point[0], point[1]) : null;
  const boxes = [];
  for (let e = hit; e && e !== document.documentElement; e = e.parentElement) boxes.push(e);
  const at = () => boxes.reduce((sum, e) => sum + e.scrollTop + e.scrollLeft * 1e-6,
                                window.scrollY + window.scrollX * 1e-6);
  let last = -1, same = 0, frames = 0;
  const tick = () => {
    const y = at();
    same = (y === last) ? same + 1 : 0; last = y; frames++;
    if (same >= 3 || frames > 120) {
      const moved = boxes.find(e => e.scrollTop || e.scrollLeft);
      const box = moved ? {box: {x: moved.scrollLeft, y: moved.scrollTop}} : {};
      resolve({x: window.scrollX, y: window.scrollY, ...box});
    } else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})"""

TABLE_JS = """(t) => {
  const rows = Array.from(t.querySelectorAll('tr'));
  const cells = r => Array.from(r.children).map(c => c.innerText.trim());
  if (rows.length && rows[0].querySelector('th')) {
    const head = cells(rows[0]);
    const keyed = r => cells(r).map((v, i) => [head[i] ?? String(i), v]);
    return rows.slice(1).map(r => Object.fromEntries(keyed(r)));
  }
  return rows.map(cells);
}"""

LINKS_JS = """(root) => Array.from(root.querySelectorAll('a[href]')).map(
  a => ({text: a.innerText.trim(), href: a.href}))"""

OPTION_VALUES_JS = """(e) => {
  const el = e instanceof HTMLLabelElement && e.control ? e.control : e;
  return el instanceof HTMLSelectElement ? Array.from(el.options, (o) => o.value) : null;
}"""

NO_WEBRTC_JS = """
(() => {
  for (const name of ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel",
                      "RTCIceCandidate", "RTCSessionDescription"]) {
    try { Object.defineProperty(window, name, {value: undefined, configurable: false}); }
    catch (e) {}
  }
})();
"""
