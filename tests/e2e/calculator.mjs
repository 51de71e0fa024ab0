// Browser end-to-end test of the web calculator in Debian's Chromium (playwright-core, no browser
// download). Run by tests/e2e.sh, which builds the page and serves it:
//   node tests/e2e/calculator.mjs --base http://127.0.0.1:PORT/ --cli build/release/traincalc --out DIR
// Prints one line per check and a closing "e2e: N passed, N failed".
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
const base = args.base;
const cli = args.cli || 'build/release/traincalc';
const outDir = args.out || fs.mkdtempSync(path.join(os.tmpdir(), 'traincalc-e2e-'));
const origin = new URL(base).origin;
const DEFAULT = '#v1&m=llama3.1-70b&i=trn2.48xlarge&c=trn2.48xlarge,p5.48xlarge&ch=256&tt=1e12';

const results = [];
// E2E_ONLY=text runs only the checks whose name contains it (for debugging one journey).
async function check(name, fn) {
  if (process.env.E2E_ONLY && !name.includes(process.env.E2E_ONLY)) return;
  const t0 = Date.now();
  try {
    const detail = await fn();
    results.push({ name, ok: true });
    console.log(`ok   ${name} (${Date.now() - t0} ms)${detail ? ': ' + detail : ''}`);
  } catch (e) {
    results.push({ name, ok: false });
    console.log(`FAIL ${name}: ${e && e.stack ? e.stack : e}`);
  }
}
function assert(cond, msg) { if (!cond) throw new Error(msg); }

const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'traincalc-chromium-'));
const context = await chromium.launchPersistentContext(userDir, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
         '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  viewport: { width: 1280, height: 800 },
});
// Every request the pages make, to check that none leaves the page's origin.
const requests = [];
context.on('request', (r) => requests.push(r.url()));
// Time every animation frame callback (the calculator's frame) with performance.now.
await context.addInitScript(() => {
  const raf = window.requestAnimationFrame.bind(window);
  window.__frames = [];
  window.requestAnimationFrame = (cb) => raf((t) => {
    const t0 = performance.now();
    cb(t);
    window.__frames.push(performance.now() - t0);
  });
});
const page = context.pages()[0] || await context.newPage();
const pageErrors = [];
// Under load, Chromium now and then reports a bare rejected promise "Permissions check failed"
// (no stack, no app frame: the page's only permission-gated call, clipboard writeText, catches its
// rejection, and pointer lock is a no-op). It is logged, not counted; anything else fails.
page.on('pageerror', (e) => {
  if (/^(Error: )?Permissions check failed$/.test((e.stack || e.message).split('\n')[0]) && !/\.js:/.test(e.stack || '')) {
    console.log('note: ignored a stackless "Permissions check failed" rejection from the browser');
    return;
  }
  pageErrors.push(e.stack || e.message);
});
page.on('console', (m) => { if (m.type() === 'error' && !/404/.test(m.text())) pageErrors.push(m.text() + ' @ ' + JSON.stringify(m.location())); });

const results_json = () => page.evaluate(() => JSON.parse(Module.ccall('tc_results_json', 'string', [], [])));
const mirror = () => page.evaluate(() => {
  const rows = {};
  for (const tr of document.querySelectorAll('#results tbody tr')) rows[tr.dataset.key] = tr.cells[2].textContent;
  return { summary: document.getElementById('summary').textContent, error: document.getElementById('error').textContent, rows };
});
const settled = () => page.waitForFunction(() => document.body.dataset.pending === '0', null, { timeout: 20000 });
// The page's own state, not its last published mirror: right after a release the mirror still
// says what it said before the drag (it is not published while a control is held).
const idle = () => page.waitForFunction(() => !JSON.parse(Module.ccall('tc_results_json', 'string', [], [])).pending,
                                        null, { timeout: 20000 });
const rectOf = async (name) => JSON.parse(await page.evaluate((n) => Module.ccall('tc_widget_rect', 'string', ['string'], [n]), name));
// ImGui 1.86 reads the mouse once a frame: a press and release between two frames is no click.
async function clickWidget(name, dx = 0.5) {
  const r = await rectOf(name);
  assert(r, `no widget ${name}`);
  const box = await page.locator('#canvas').boundingBox();
  const x = box.x + r[0] + (r[2] - r[0]) * dx, y = box.y + (r[1] + r[3]) / 2;
  await page.mouse.move(x, y);
  await page.waitForTimeout(60);
  await page.mouse.down();
  await page.waitForTimeout(60);
  await page.mouse.up();
  await page.waitForTimeout(60);
}
// n more frames drawn (or 3 s): the time a loaded machine takes to act on the input before it.
async function waitFrames(n) {
  const f0 = (await results_json()).frames_drawn;
  await page.waitForFunction((f) => JSON.parse(Module.ccall('tc_results_json', 'string', [], [])).frames_drawn >= f,
    f0 + n, { timeout: 3000, polling: 10 }).catch(() => {});
}
// Keys, like the mouse above, are held over a few frames, as a person presses them. Dear ImGui
// 1.86 reads which keys are down once per frame, so a key stays down until a frame has started
// after it was pressed, and up until one has started after it was released (a loaded machine draws
// fewer frames in the same time; a key held past 275 ms would repeat).
async function pressHeld(...keys) {
  for (const k of keys) await page.keyboard.down(k);
  await page.waitForTimeout(60);
  await waitFrames(1);
  for (const k of keys.reverse()) await page.keyboard.up(k);
  await page.waitForTimeout(30);
  await waitFrames(1);
}
const readyTimes = [];
// A fresh load of the page (a new document, not a hash change) at a window size.
async function load(hash, width = 1280, height = 800) {
  await page.setViewportSize({ width, height });
  await page.goto('about:blank');
  await page.goto(base + hash);
  await page.waitForSelector('body[data-ready]', { timeout: 5000, state: 'attached' });
  readyTimes.push(Number(await page.evaluate(() => document.body.dataset.readyMs)));
  await settled();
}

let readyMs = 0;
let readyStats = '';
await check('page is ready within 5 s', async () => {
  const t0 = Date.now();
  await page.goto(base + DEFAULT);
  await page.waitForSelector('body[data-ready]', { timeout: 5000 });
  readyMs = Date.now() - t0;
  readyTimes.push(Number(await page.evaluate(() => document.body.dataset.readyMs)));
  return `${readyMs} ms`;
});

await check('screenshot is not blank', async () => {
  await settled();
  const file = path.join(outDir, 'screenshot-desktop.png');
  const png = await page.screenshot({ path: file });
  // Inflate the PNG's image data and count distinct bytes: a blank canvas has a handful.
  const chunks = [];
  for (let i = 8; i < png.length;) {
    const len = png.readUInt32BE(i);
    if (png.toString('latin1', i + 4, i + 8) === 'IDAT') chunks.push(png.subarray(i + 8, i + 8 + len));
    i += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(chunks));
  const distinct = new Set(raw).size;
  assert(distinct > 64, `only ${distinct} distinct byte values in the screenshot`);
  return `${file}, ${distinct} distinct byte values`;
});

await check('no frame is drawn while nothing changes (2 s idle after settling)', async () => {
  await settled();
  await page.mouse.move(2, 2);
  // Settled: the tail after the last event and the throttled publishing are over when no frame
  // has been drawn for 600 ms (a loaded machine draws the tail's frames slowly).
  let before = -1;
  for (let i = 0; i < 20; ++i) {
    const n = (await results_json()).frames_drawn;
    if (n === before) break;
    before = n;
    await page.waitForTimeout(600);
  }
  const rafBefore = await page.evaluate(() => window.__frames.length);
  await page.waitForTimeout(2000);
  const after = (await results_json()).frames_drawn;
  const raf = (await page.evaluate(() => window.__frames.length)) - rafBefore;
  assert(after === before, `${after - before} frames drawn in 2 s of idle`);
  assert(raf === 0, `${raf} animation frame callbacks in 2 s of idle`);
  // And an input event draws again.
  await page.mouse.move(300, 300);
  await page.waitForFunction((n) => JSON.parse(Module.ccall('tc_results_json', 'string', [], [])).frames_drawn > n, after, { timeout: 2000 });
  return `0 frames, 0 animation frame callbacks in 2 s; ${before} frames drawn before`;
});

await check('DOM mirror equals `traincalc estimate` on the same scenario', async () => {
  await settled();
  const r = await results_json();
  const file = path.join(outDir, 'scenario.json');
  fs.writeFileSync(file, JSON.stringify(r.scenario, null, 2));
  const est = JSON.parse(execFileSync(cli, ['estimate', file], { encoding: 'utf8' }));
  const m = await mirror();
  const expected = {
    step_time_s: est.step_time_s, tokens_per_s: est.tokens_per_s, tokens_per_s_per_chip: est.tokens_per_s_per_chip,
    mfu: est.mfu, train_time_s: est.train_time_s, memory_total_gib: est.memory_gib_per_device.total,
    chips: est.chips, max_micro_batch: est.max_micro_batch,
  };
  if (est.wall_time_s && typeof est.wall_time_s.total === 'number') expected.wall_time_s = est.wall_time_s.total;
  if (est.cost_usd && typeof est.cost_usd.total === 'number') expected.cost_usd = est.cost_usd.total;
  if (typeof est.usd_per_million_tokens === 'number') expected.usd_per_million_tokens = est.usd_per_million_tokens;
  const compared = [];
  for (const [key, want] of Object.entries(expected)) {
    assert(key in m.rows, `the mirror has no row ${key}`);
    const got = Number(m.rows[key]);
    assert(Number.isFinite(got) && Math.abs(got - want) <= 1e-5 * Math.max(1, Math.abs(want)),
      `${key}: page ${m.rows[key]}, CLI ${want}`);
    compared.push(key);
  }
  return `${compared.length} numbers agree (${compared.join(', ')})`;
});

await check('changing the hash changes the results', async () => {
  const before = await mirror();
  await page.evaluate(() => { location.hash = '#v1&m=llama3.1-8b&i=p5.48xlarge&n=2&tt=1e11'; });
  await page.waitForFunction((s) => document.getElementById('summary').textContent !== s, before.summary, { timeout: 5000 });
  const after = await mirror();
  assert(/8B/.test(after.summary), `summary: ${after.summary}`);
  assert(after.rows.step_time_s !== before.rows.step_time_s, 'step time did not change');
  return after.summary;
});

await check('a malformed or hostile hash shows an error and keeps the last good scenario', async () => {
  const good = await mirror();
  for (const bad of ['#v1&n=abc', '#v1&m=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E', '#v1&zz=1&' + 'a'.repeat(3000), '#v7&m=x']) {
    await page.evaluate((h) => { location.hash = h; }, bad);
    await page.waitForFunction(() => /could not be read/.test(document.getElementById('error').textContent), null, { timeout: 5000 });
    const m = await mirror();
    assert(m.summary === good.summary, `summary changed after ${bad.slice(0, 40)}: ${m.summary}`);
    assert(await page.evaluate(() => document.querySelectorAll('#mirror img, #mirror script').length === 0), 'markup got into the mirror');
    await page.evaluate(() => { location.hash = '#v1&m=llama3.1-8b&i=p5.48xlarge&n=2&tt=1e11'; });
    await page.waitForFunction(() => document.getElementById('error').textContent === '', null, { timeout: 5000 });
  }
  return 'four bad links rejected';
});

// The main thread's CPU time of each animation frame while `run` runs: Chromium's trace
// (FireAnimationFrame's thread duration), which, unlike performance.now(), leaves out the time
// the thread waits while other threads (SwiftShader's rasterizer, other processes) hold the cores.
async function animationFrameCpuMs(run) {
  const cdp = await context.newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: {
    includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] } });
  await run();
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  return events.filter((e) => e.name === 'FireAnimationFrame' && e.ph === 'X' && e.tdur !== undefined)
    .map((e) => e.tdur / 1000);
}

let dragStats = '';
await check('slider drag with comparison (3 instances) and scaling visible: p99 frame at most 8 ms of CPU, mean 5 ms', async () => {
  await page.goto(base + '#v1&m=llama3.1-70b&i=trn2.48xlarge&c=trn2.48xlarge,p5.48xlarge,p4d.24xlarge&n=16&tt=1e12');
  await page.waitForSelector('body[data-ready]', { timeout: 5000 });
  await settled();
  const rect = JSON.parse(await page.evaluate(() => Module.ccall('tc_widget_rect', 'string', ['string'], ['nodes'])));
  assert(rect, 'no nodes slider');
  const box = await page.locator('#canvas').boundingBox();
  const y = box.y + (rect[1] + rect[3]) / 2;
  const x0 = box.x + rect[0] + 4, x1 = box.x + rect[2] - 4;
  const before = (await mirror()).rows.chips;
  // A first, unmeasured drag: WebAssembly functions are compiled on their first call.
  await page.mouse.move(x0 + (x1 - x0) * 0.45, y);
  await page.mouse.down();
  for (let i = 0; i <= 40; ++i) {
    await page.mouse.move(x0 + (x1 - x0) * (0.45 + 0.5 * Math.sin(i / 6)), y, { steps: 2 });
    await page.waitForTimeout(20);
  }
  await page.mouse.move(x0 + (x1 - x0) * 0.45, y, { steps: 2 });
  await page.mouse.up();
  await idle();  // the release's plan searches are not the measured drag's frames
  await settled();
  await page.mouse.move(x0 + (x1 - x0) * 0.4, y);
  await page.mouse.down();
  await page.evaluate(() => { Module._tc_reset_frame_stats(); window.__frames = []; });
  // 120 moves: some 250 frames, so the 99th percentile is not just the slowest frame.
  const cpu = await animationFrameCpuMs(async () => {
    for (let i = 0; i <= 120; ++i) {
      await page.mouse.move(x0 + (x1 - x0) * (0.4 + 0.5 * Math.sin(i / 6)), y, { steps: 2 });
      await page.waitForTimeout(25);
    }
  });
  const during = await results_json();
  const js = await page.evaluate(() => window.__frames.slice());
  await page.mouse.up();
  await settled();
  const after = (await mirror()).rows.chips;
  const jsMax = Math.max(...js);
  const wasmMax = during.frame_ms.max;
  dragStats = `${js.length} frames, max ${jsMax.toFixed(1)} ms (rAF callback), ` +
              `max ${wasmMax.toFixed(1)} ms / mean ${during.frame_ms.mean.toFixed(1)} ms (frame function; slowest: ` +
              `update ${during.frame_ms.slowest.update.toFixed(1)}, panels ${during.frame_ms.slowest.panels.toFixed(1)}, ` +
              `render ${during.frame_ms.slowest.render.toFixed(1)} ms; last preview estimate ${during.compute_ms.toFixed(1)} ms)`;
  assert(js.length >= 20, `only ${js.length} frames during the drag`);
  assert(cpu.length >= 100, `only ${cpu.length} traced frames during the drag`);
  assert(after !== before, `the drag did not change the cluster (chips ${before} -> ${after})`);
  // Issue 13's goal: the 99th percentile of the drag's frames (the rAF callback: ImGui, the
  // previews of the scenario and of every compared instance, WebGL calls) at most 8 ms of CPU
  // (3.3-4.3 ms measured over five runs, 2026-12-02), and a mean of at most 5 ms, which a plan
  // search per frame breaks. Wall time (performance.now()) also counts the time the thread waits
  // while SwiftShader rasterizes on the same 2 cores: it is printed only.
  const pct = (values, q) => {
    const sorted = values.slice().sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  };
  const cpuMean = cpu.reduce((a, b) => a + b, 0) / cpu.length;
  dragStats += `, wall p95 ${pct(js, 0.95).toFixed(1)} ms, p99 ${pct(js, 0.99).toFixed(1)} ms; ` +
               `CPU (${cpu.length} traced frames) mean ${cpuMean.toFixed(1)} ms, p95 ${pct(cpu, 0.95).toFixed(1)} ms, ` +
               `p99 ${pct(cpu, 0.99).toFixed(1)} ms, max ${Math.max(...cpu).toFixed(1)} ms`;
  assert((during.scenario.compare_instances || []).length === 3, `compared: ${during.scenario.compare_instances}`);
  assert(pct(cpu, 0.99) <= 8 && cpuMean <= 5, dragStats);
  return dragStats;
});

await check('every node count 1-128 gives a result (Llama 3.1 8B on p5, 70B on trn2)', async () => {
  await page.goto(base + DEFAULT);
  await page.waitForSelector('body[data-ready]', { timeout: 5000 });
  for (const [m, i] of [['llama3.1-8b', 'p5.48xlarge'], ['llama3.1-70b', 'trn2.48xlarge']]) {
    for (let n = 1; n <= 128; ++n) {
      await page.evaluate((h) => { location.hash = h; }, `#v1&m=${m}&i=${i}&n=${n}&tt=1e12`);
      await page.waitForFunction((n) => JSON.parse(Module.ccall('tc_results_json', 'string', [], [])).scenario.nodes === n,
        n, { timeout: 10000 });
      const r = await results_json();
      const e = (await mirror()).error;
      assert(r.ok && e === '', `${m} on ${n} x ${i}: ${r.error || e}`);
    }
  }
  return '256 node counts, no error';
});

await check('a config.json dropped on the page becomes the model', async () => {
  const text = fs.readFileSync('tests/data/hf_configs/mixtral-8x7b-v0.1.json', 'utf8');
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], 'config.json', { type: 'application/json' }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, text);
  await page.waitForFunction(() => {
    const r = JSON.parse(Module.ccall('tc_results_json', 'string', [], []));
    return r.scenario.model && r.scenario.model.hf_config;
  }, null, { timeout: 10000 });
  await settled();
  const r = await results_json();
  assert(r.ok, r.error);
  const file = path.join(outDir, 'config-scenario.json');
  fs.writeFileSync(file, JSON.stringify(r.scenario, null, 2));
  const est = JSON.parse(execFileSync(cli, ['estimate', file], { encoding: 'utf8' }));
  // Mixtral 8x7B: 46,702,792,704 parameters (the released checkpoint).
  assert(est.params === 46702792704, `params ${est.params}`);
  const m = await mirror();
  assert(Math.abs(Number(m.rows.step_time_s) - est.step_time_s) <= 1e-5 * est.step_time_s,
    `step time: page ${m.rows.step_time_s}, CLI ${est.step_time_s}`);
  return `mixtral, ${est.params} parameters, step ${est.step_time_s.toFixed(2)} s on page and CLI`;
});

await check('embed mode hides the page chrome', async () => {
  await page.goto(base + DEFAULT + '&embed=1');
  // Attached, not "visible": the embed layout may be mid-resize when the flag appears.
  await page.waitForSelector('body[data-ready]', { timeout: 5000, state: 'attached' });
  const s = await page.evaluate(() => ({
    header: getComputedStyle(document.getElementById('chrome-header')).display,
    footer: getComputedStyle(document.getElementById('chrome-footer')).display,
    canvas: document.getElementById('canvas').getBoundingClientRect().height,
    inner: window.innerHeight,
  }));
  assert(s.header === 'none' && s.footer === 'none', `chrome shown: ${JSON.stringify(s)}`);
  assert(Math.abs(s.canvas - s.inner) < 2, `canvas ${s.canvas} px of ${s.inner}`);
  return 'header and footer hidden, canvas fills the frame';
});

await check('embed mode keeps Copy link and Export', async () => {
  await load(DEFAULT + '&embed=1', 800, 600);
  await page.evaluate(() => { navigator.clipboard.writeText = async (t) => { window.__copied = t; }; });
  await clickWidget('copy_link');
  const copied = await page.waitForFunction(() => window.__copied, null, { timeout: 3000 }).then((h) => h.jsonValue());
  assert(/#v1&/.test(copied) && /embed=1/.test(copied) && copied.startsWith(origin), `copied ${copied}`);
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 5000 }), clickWidget('export_json')]);
  const file = path.join(outDir, 'embed-export.json');
  await download.saveAs(file);
  const exported = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert(download.suggestedFilename() === 'scenario.json' && exported.model === 'llama3.1-70b', `exported ${download.suggestedFilename()}`);
  return `link ${copied.slice(origin.length)}, ${download.suggestedFilename()}`;
});

await check('keyboard: keys do not scroll the page, Ctrl+A selects the field, Tab leaves the canvas', async () => {
  await load('#v1&m=llama3.1-70b&i=trn2.48xlarge&n=16&tt=1e12', 1280, 500);  // shorter than the page: it can scroll
  const scrollable = await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight);
  assert(scrollable, 'the page does not scroll at this size');
  await page.focus('#canvas');  // scrolls the canvas into view
  const scrollY0 = await page.evaluate(() => window.scrollY);
  for (const key of ['ArrowDown', 'PageDown', 'End', 'ArrowRight', 'ArrowUp', 'PageUp']) await page.keyboard.press(key);
  await page.waitForTimeout(100);
  const scrollY = await page.evaluate(() => window.scrollY);
  assert(scrollY === scrollY0, `the page scrolled from ${scrollY0} to ${scrollY}`);
  // Ctrl+A in the global batch field selects its text (typing replaces it), not the page's. A
  // click selects a number field's text too: End first moves the cursor to the end, where typing
  // would append ("5122048") unless Ctrl+A selected the text again.
  await clickWidget('global_batch');
  await pressHeld('End');
  // A tap: down and up before the next frame (see key_callback in src/app/main_web.cpp).
  await page.keyboard.press('Control+A');
  await waitFrames(2);  // the selection is made before the first character arrives
  const pageSelection = await page.evaluate(() => String(window.getSelection()));
  assert(pageSelection === '', `the page's text was selected: ${pageSelection.slice(0, 40)}`);
  await page.keyboard.type('2048', { delay: 30 });
  await page.keyboard.press('Enter');
  const typed = await page.waitForFunction(() => JSON.parse(Module.ccall('tc_results_json', 'string', [], [])).scenario.global_batch === 2048,
    null, { timeout: 3000 }).then(() => true, () => false);
  assert(typed, `Ctrl+A then "2048": global batch ${(await results_json()).scenario.global_batch}`);
  // Tab from a field visits every field below it in order, each one edited in turn, then
  // leaves the canvas for the page's next element. (A field reached by Tab must keep the focus:
  // two widgets with one id released each other's, and the next Tab went back to the start.)
  await clickWidget('global_batch');
  let tabs = 0;
  const visited = [];
  const canvasFocused = () => page.evaluate(() => document.activeElement === document.getElementById('canvas'));
  while (tabs < 250 && await canvasFocused()) {
    await page.keyboard.press('Tab');  // a tap, as above
    ++tabs;
    // After each Tab, 7 frames counted from after it (ImGui moves the focus over a few, and the
    // page decides at the sixth whether the focus wrapped) or the focus leaving the canvas.
    const frames0 = (await results_json()).frames_drawn;
    await page.waitForFunction((n) => document.activeElement !== document.getElementById('canvas') ||
      JSON.parse(Module.ccall('tc_results_json', 'string', [], [])).frames_drawn >= n + 7, frames0, { timeout: 5000 });
    if (await canvasFocused()) visited.push((await results_json()).focus);
  }
  const next = await page.evaluate(() => document.activeElement && (document.activeElement.id || document.activeElement.tagName));
  assert(tabs >= 1 && tabs < 250, `Tab left the canvas after ${tabs} presses`);
  // Two or more: the default scenario's fields below the global batch that are not left "auto" (a
  // knob left to the search is greyed and takes no focus).
  assert(visited.length >= 2, `Tab visited only ${visited.length} field(s) before leaving: ${JSON.stringify(visited)}`);
  visited.forEach((f, i) => {
    assert(f && f.editing, `Tab ${i + 1} did not leave a text field being edited: ${JSON.stringify(f)}`);
    const prev = visited[i - 1];
    assert(!prev || f.window !== prev.window || f.y > prev.y + 1 || (Math.abs(f.y - prev.y) <= 1 && f.x > prev.x),
      `Tab ${i + 1} went back from ${JSON.stringify(prev)} to ${JSON.stringify(f)}`);
  });
  const expected = await page.evaluate(() => {
    const all = Array.from(document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]'))
      .filter((el) => el.tabIndex >= 0 && !el.disabled && el.getClientRects().length > 0);
    const after = all[all.indexOf(document.getElementById('canvas')) + 1];
    return after && (after.id || after.tagName);
  });
  assert(next === expected, `focus went to ${next}, not ${expected}`);
  return `page stayed put; global batch typed over after Ctrl+A; Tab visited ${visited.length} fields in order, then left to ${next}`;
});

await check('a phone-sized window (390 x 844) shows the results first and wraps the toolbar', async () => {
  await load(DEFAULT, 390, 844);
  await page.waitForTimeout(200);
  const [results, editor, seeds, exportJson] = await Promise.all(['results', 'editor', 'seeds', 'export_json'].map(rectOf));
  assert(results && editor && results[1] < editor[1], `results at ${results && results[1]}, editor at ${editor && editor[1]}`);
  const width = await page.evaluate(() => document.getElementById('canvas').getBoundingClientRect().width);
  assert(exportJson[2] <= width && exportJson[1] > seeds[1], `toolbar not wrapped: export ${exportJson}, seeds ${seeds}, width ${width}`);
  const file = path.join(outDir, 'screenshot-narrow.png');
  await page.screenshot({ path: file });
  return `results at y ${results[1].toFixed(0)}, inputs at y ${editor[1].toFixed(0)}; ${file}`;
});

await check('the DOM mirror carries band, bill, warnings, claims, errors and working input controls', async () => {
  await load('#v1&s=case-a-dense-100b');
  const m = await page.evaluate(() => ({
    band: document.getElementById('band').textContent,
    bill: document.querySelectorAll('#bill li').length,
    claims: Array.from(document.querySelectorAll('#claims li')).map((li) => li.textContent),
    controls: Array.from(document.querySelectorAll('#inputs select, #inputs input')).map((c) => [c.id, c.labels[0] && c.labels[0].textContent, c.value]),
  }));
  assert(/Typically within/.test(m.band), `band: ${m.band}`);
  assert(m.bill >= 2, `${m.bill} bill lines`);
  assert(m.claims.length > 0 && m.claims.every((c) => /^(ok|implausible|impossible|unchecked): /.test(c)), `claims: ${m.claims}`);
  const ids = m.controls.map((c) => c[0]);
  for (const id of ['input-model', 'input-instance', 'input-nodes', 'input-precision', 'input-global_batch'])
    assert(ids.includes(id), `no control ${id}: ${ids}`);
  assert(m.controls.every((c) => c[1]), 'a control has no label');
  // The HTML controls change the scenario as the canvas does.
  await load('#v1&m=llama3.1-70b&i=trn2.48xlarge&n=16&tt=1e12');
  await page.selectOption('#input-instance', 'p5.48xlarge');
  await page.waitForFunction(() => / on 16 x p5\.48xlarge/.test(document.getElementById('summary').textContent), null, { timeout: 10000 });
  await page.fill('#input-nodes', '8');
  await page.dispatchEvent('#input-nodes', 'change');
  await page.waitForFunction(() => / on 8 x p5\.48xlarge/.test(document.getElementById('summary').textContent), null, { timeout: 10000 });
  await settled();
  const r = await results_json();
  assert(r.scenario.instance === 'p5.48xlarge' && r.scenario.nodes === 8, JSON.stringify([r.scenario.instance, r.scenario.nodes]));
  // A warning the canvas shows is in the mirror: 1 node of p5 cannot hold a 70B model's state.
  await page.fill('#input-nodes', '1');
  await page.dispatchEvent('#input-nodes', 'change');
  await page.waitForFunction(() => document.getElementById('summary').textContent.includes(' on 1 x ') ||
    document.getElementById('error').textContent !== '', null, { timeout: 10000 });
  await settled();
  const shown = await page.evaluate(() => ({ warnings: document.querySelectorAll('#warnings li').length,
    error: document.getElementById('error').textContent }));
  assert(shown.warnings > 0 || shown.error, `no warning nor error on 1 node: ${JSON.stringify(shown)}`);
  // An import error is listed.
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['{"model": 7}'], 'broken.json', { type: 'application/json' }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction(() => /Scenario not imported/.test(document.getElementById('banners').textContent), null, { timeout: 5000 });
  return `band, ${m.bill} bill lines, ${m.claims.length} claims, 5 labelled controls that edit the scenario, ` +
         `${shown.warnings} warnings on 1 node, import error listed`;
});

await check("a bad operator preset file shows a banner naming file and field; built-ins stay", async () => {
  await page.goto(new URL('ops/', base).href + DEFAULT);
  await page.waitForSelector('body[data-ready]', { timeout: 5000 });
  await settled();
  const r = await results_json();
  const banner = r.banners.find((b) => b.includes('bad-prices.json'));
  assert(banner, `no banner: ${JSON.stringify(r.banners)}`);
  assert(/instances\[0\]/.test(banner), `banner does not name the field: ${banner}`);
  assert(r.ok, `built-in presets not in use: ${r.error}`);
  return banner;
});

await check('ready (first frame with results) within 1.0 s', async () => {
  const sorted = readyTimes.filter(Number.isFinite).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  readyStats = `${sorted.length} loads: fastest ${sorted[0]} ms, median ${median} ms, slowest ${sorted[sorted.length - 1]} ms`;
  assert(median <= 1000, readyStats);
  return readyStats;
});

await check('no request to another origin', async () => {
  const foreign = requests.filter((u) => !u.startsWith(origin + '/') && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert(foreign.length === 0, `requests elsewhere: ${foreign.join(', ')}`);
  return `${requests.length} requests, all to ${origin}`;
});

await check('no script errors', async () => {
  assert(pageErrors.length === 0, pageErrors.join('\n'));
});

await context.close();
fs.rmSync(userDir, { recursive: true, force: true });
const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
fs.writeFileSync(path.join(outDir, 'summary.json'), JSON.stringify({ readyMs, readyStats, dragStats, passed, failed }, null, 2));
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
