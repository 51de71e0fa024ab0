// The page around the WebAssembly calculator: loading with progress, the URL hash, the DOM
// mirror of the results, files in and out, keyboard/wheel/clipboard fixes for Emscripten's GLFW,
// and operators' preset files. Runs before traincalc-web.js, so its listeners come first.
'use strict';

(function () {
  const canvas = document.getElementById('canvas');
  // The calculator never locks the pointer. Emscripten's GLFW can still ask for it on a click,
  // and Chromium answers a request without a user gesture with a rejected promise ("Permissions
  // check failed"), an uncaught error on the page: make the request a no-op.
  canvas.requestPointerLock = () => Promise.resolve();
  const statusText = document.getElementById('status-text');
  const progress = document.getElementById('progress');
  const importInput = document.getElementById('import-file');
  let runtimeReady = false;
  let firstFrame = false;
  let presetsDone = false;


  function setStatus(text) { statusText.textContent = text; }
  if (/(^#|&)embed=1(&|$)/.test(location.hash)) document.body.classList.add('embed');

  function maybeReady() {
    if (firstFrame && presetsDone && !document.body.hasAttribute('data-ready')) {
      // Milliseconds from navigation to the first frame with results (the browser test reads it).
      document.body.dataset.readyMs = String(Math.round(performance.now()));
      document.body.setAttribute('data-ready', '');
    }
  }

  function callString(name, args) {
    return Module.ccall(name, 'number', args.map(() => 'string'), args);
  }

  // ---- the DOM mirror: text only, never HTML ---------------------------------------------------
  function fillRows(tbody, rows) {
    tbody.replaceChildren();
    for (const cells of rows) {
      const tr = document.createElement('tr');
      cells.forEach((cell, i) => {
        const td = document.createElement(i === 0 ? 'th' : 'td');
        if (i === 0) td.scope = 'row';
        td.textContent = String(cell);
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    }
  }

  function publish(json) {
    let m;
    try { m = JSON.parse(json); } catch (e) { return; }
    document.getElementById('summary').textContent = m.summary || '';
    document.getElementById('error').textContent = [m.hash_error, m.ok ? '' : m.error].filter(Boolean).join(' ');
    const results = document.querySelector('#results tbody');
    fillRows(results, (m.rows || []).map((r) => [r.label, r.text, r.exact]));
    Array.from(results.rows).forEach((tr, i) => { tr.dataset.key = m.rows[i].key; });
    const cmp = m.comparison || { header: [], rows: [] };
    const head = document.querySelector('#comparison thead');
    head.replaceChildren();
    const htr = document.createElement('tr');
    for (const h of cmp.header) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = String(h);
      htr.appendChild(th);
    }
    head.appendChild(htr);
    fillRows(document.querySelector('#comparison tbody'), cmp.rows);
    document.getElementById('band').textContent = m.band || '';
    fillList('warnings', m.warnings);
    fillList('bill', m.bill);
    fillList('claims', m.claims);
    fillList('banners', m.banners);
    fillInputs(m.inputs || []);
    document.body.dataset.pending = m.pending ? '1' : '0';
  }

  function fillList(id, items) {
    const list = document.getElementById(id);
    list.replaceChildren(...(items || []).map((t) => {
      const li = document.createElement('li');
      li.textContent = String(t);
      return li;
    }));
    list.hidden = !list.children.length;
  }

  // The main inputs as HTML controls: a change goes into the scenario as the canvas's own
  // controls do (tc_set_input, the editor's doc_set), and the canvas and mirror follow.
  const inputsForm = document.getElementById('inputs');
  inputsForm.addEventListener('submit', (e) => e.preventDefault());
  function fillInputs(inputs) {
    for (const spec of inputs) {
      const id = 'input-' + spec.path;
      let control = document.getElementById(id);
      if (!control) {
        const label = document.createElement('label');
        label.htmlFor = id;
        label.textContent = spec.label;
        control = document.createElement(spec.choices ? 'select' : 'input');
        control.id = id;
        control.name = spec.path;
        control.title = spec.help;
        if (!spec.choices) {
          control.type = 'number';
          control.min = spec.min;
          control.max = spec.max;
          control.step = 1;
        }
        control.addEventListener('change', () => {
          if (runtimeReady) callString('tc_set_input', [spec.path, control.value]);
        });
        inputsForm.append(label, control);
      }
      if (spec.choices && control.options.length !== spec.choices.length) {
        control.replaceChildren(...spec.choices.map((c) => new Option(c.label, c.value)));
      }
      // A control being edited keeps what the user is typing.
      const value = spec.value === null || spec.value === undefined ? '' : String(spec.value);
      if (document.activeElement !== control && control.value !== value) control.value = value;
    }
  }

  // ---- files -----------------------------------------------------------------------------------
  function saveFile(name, mime, data) {
    const url = URL.createObjectURL(new Blob([data], { type: mime }));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  // A scenario, or a config.json for its model (the import tells them apart).
  async function importFile(file) {
    if (file.size > 1 << 20) {
      callString('tc_report_error', [file.name + ': larger than 1 MiB, not a scenario file']);
      return;
    }
    callString('tc_import', [file.name, await file.text()]);
  }
  importInput.addEventListener('change', async () => {
    const file = importInput.files && importInput.files[0];
    importInput.value = '';
    if (file) await importFile(file);
  });

  // A scenario or config.json dropped on the page takes the same path as one opened.
  window.addEventListener('dragover', (e) => { e.preventDefault(); });
  window.addEventListener('drop', async (e) => {
    e.preventDefault();
    const file = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
    if (file && runtimeReady) await importFile(file);
  });

  // ---- operators' presets: presets.json beside the page lists preset files --------------------
  const presetPath = /^[A-Za-z0-9_][A-Za-z0-9_.\/-]{0,127}\.json$/;
  async function loadOperatorPresets() {
    try {
      const list = await fetch('presets.json', { cache: 'no-cache', credentials: 'same-origin', redirect: 'error' });
      if (list.status === 404) return;
      if (!list.ok) throw new Error('HTTP ' + list.status);
      let files;
      try { files = JSON.parse(await list.text()); } catch (e) { throw new Error('not JSON: ' + e.message); }
      if (!Array.isArray(files) || files.length > 50) throw new Error('must be an array of at most 50 file names');
      for (const [i, path] of files.entries()) {
        if (typeof path !== 'string' || !presetPath.test(path) || path.includes('..') || path.includes('//')) {
          callString('tc_report_error', ['presets.json: [' + i + ']: not a file name beside this page; not loaded']);
          continue;
        }
        const url = new URL(path, location.href);
        if (url.origin !== location.origin) continue;
        try {
          const r = await fetch(url, { cache: 'no-cache', credentials: 'same-origin', redirect: 'error' });
          if (!r.ok) throw new Error('HTTP ' + r.status);
          callString('tc_stage_preset', [path, await r.text()]);
        } catch (e) {
          callString('tc_report_error', [path + ': could not be fetched (' + e.message + '); the built-in presets stay in use']);
        }
      }
      // One set, in the CLI's order (files by name, then by kind), all or nothing.
      callString('tc_merge_staged_presets', []);
    } catch (e) {
      callString('tc_report_error', ['presets.json: ' + e.message + '; the built-in presets stay in use']);
    }
  }

  // ---- input fixes for Emscripten's GLFW (registered before it, so they run first) ------------
  function canvasHasFocus() {
    return document.activeElement === canvas || document.activeElement === document.body;
  }
  // Keys that scroll the host page or select its text when the canvas does not claim them.
  const pageKeys = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'PageUp', 'PageDown', 'Home', 'End']);
  for (const type of ['keydown', 'keypress']) {
    window.addEventListener(type, (e) => {
      if (!runtimeReady) return;
      // Keys typed into the page's own controls are not the calculator's. (Key-ups always reach
      // GLFW, so that a key held while the focus left the canvas is released there.)
      if (!canvasHasFocus()) { e.stopImmediatePropagation(); return; }
      if (type !== 'keydown') return;
      if (pageKeys.has(e.key) || ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'a')) e.preventDefault();
      // Tab moves through the canvas's fields; past the last one the focus leaves the canvas
      // (tc_tab, then focusNext). With no field to move to, it leaves at once.
      if (e.key === 'Tab' && !Module._tc_tab(e.shiftKey ? 1 : 0)) e.stopImmediatePropagation();
    }, true);
  }
  // Any input may change what the canvas shows: the main loop, paused while idle, draws again.
  const wake = () => { if (runtimeReady) Module._tc_wake(); };
  for (const type of ['mousemove', 'mousedown', 'mouseup', 'keydown', 'keyup', 'touchstart', 'touchmove', 'touchend',
                      'focus', 'blur', 'resize']) {
    window.addEventListener(type, wake, { capture: true, passive: true });
  }
  if (typeof ResizeObserver === 'function') new ResizeObserver(wake).observe(canvas);

  // The focusable element after (direction 1) or before (-1) the canvas in the page's order.
  function focusNext(direction) {
    const all = Array.from(document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]'))
      .filter((el) => el.tabIndex >= 0 && !el.disabled && el.getClientRects().length > 0);
    const target = all[all.indexOf(canvas) + direction];
    if (target) target.focus(); else canvas.blur();
  }
  canvas.addEventListener('wheel', (e) => {
    e.stopImmediatePropagation();  // GLFW's own handler is too fast, un-negated, and eats page scrolling
    if (!runtimeReady) return;
    const scale = e.deltaMode === 1 ? 1 / 3 : e.deltaMode === 2 ? 3 : 1 / 100;
    if (Module._tc_wheel(-e.deltaX * scale, -e.deltaY * scale)) e.preventDefault();
  }, { capture: true, passive: false });
  window.addEventListener('paste', (e) => {
    if (!runtimeReady || !canvasHasFocus()) return;
    const text = e.clipboardData && e.clipboardData.getData('text');
    if (text && callString('tc_paste', [text])) {
      e.preventDefault();
    } else if (text && /^\s*\{/.test(text)) {
      // Outside a text field, pasted JSON is imported: a scenario, or a config.json as its model.
      e.preventDefault();
      callString('tc_import', ['pasted text', text]);
    }
  });
  canvas.addEventListener('mousedown', () => canvas.focus());
  canvas.addEventListener('webglcontextlost', (e) => {
    e.preventDefault();
    document.getElementById('contextlost').classList.remove('hidden');
  });
  document.getElementById('reload').addEventListener('click', () => location.reload());

  function embedFromHash() {
    document.body.classList.toggle('embed', /(^#|&)embed=1(&|$)/.test(location.hash));
  }
  window.addEventListener('hashchange', () => {
    embedFromHash();
    if (runtimeReady) callString('tc_apply_hash', [location.hash]);
  });

  // ---- hooks the C++ side calls (src/app/main_web.cpp) ----------------------------------------
  window.traincalc = {
    copyText(text) {
      if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
    },
    saveFile,
    openFile() { importInput.click(); },
    setHash(hash) {
      if (hash !== location.hash) history.replaceState(null, '', hash);
    },
    publish,
    setCursor(c) { canvas.style.cursor = c; },
    firstFrame() { firstFrame = true; maybeReady(); },
    focusNext,
  };

  // ---- loading ---------------------------------------------------------------------------------
  async function fetchWithProgress(url) {
    const r = await fetch(url, { credentials: 'same-origin' });
    if (!r.ok) throw new Error(url + ': HTTP ' + r.status);
    const total = Number(r.headers.get('Content-Length')) || 0;
    if (!r.body || !total) return r.arrayBuffer();
    const reader = r.body.getReader();
    const bytes = new Uint8Array(total);
    let got = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (got + value.length > total) return r.arrayBuffer();
      bytes.set(value, got);
      got += value.length;
      progress.value = Math.round((100 * got) / total);
      setStatus('Loading the calculator... ' + Math.round(got / 1024) + ' of ' + Math.round(total / 1024) + ' KiB');
    }
    return bytes.buffer;
  }

  function fail(what) {
    setStatus('The calculator could not start: ' + what);
    progress.hidden = true;
  }

  window.Module = {
    canvas,
    print: (t) => console.log(t),
    printErr: (t) => console.warn(t),
    setStatus: () => {},
    instantiateWasm(imports, receive) {
      fetchWithProgress('traincalc-web.wasm')
        .then((buf) => WebAssembly.instantiate(buf, imports))
        .then((r) => receive(r.instance, r.module))
        .catch((e) => fail(String(e && e.message ? e.message : e)));
      return {};
    },
    onAbort: (what) => fail(String(what)),
    postRun: [() => {
      performance.mark('traincalc-runtime');  // wasm compiled, main() run: see docs/performance.md
      runtimeReady = true;
      setStatus('Starting...');
      if (location.hash) callString('tc_apply_hash', [location.hash]);
      loadOperatorPresets().finally(() => { presetsDone = true; maybeReady(); });
    }],
  };
  if (typeof WebAssembly !== 'object') fail('this browser has no WebAssembly');
})();
