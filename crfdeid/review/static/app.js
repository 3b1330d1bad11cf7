// crfdeid review page: plain JavaScript, no build step, no requests beyond this server.
// Every decision is one JSON request, saved before the page changes (no lost work).
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  mode: "review", who: "", categories: {}, subtypes: [], parentOf: {},
  review: { note: null, cur: -1, history: [], lastType: "DOCTOR" },
  agg: { notes: [], note: null, data: null, cur: 0, voters: null },
  sur: { notes: [], note: null, data: null, cur: 0 },
  pages: {},   // element id -> {page, count, stride, seenEnd} of the part of the text drawn
  texts: {},   // element id -> {text, make (its marks now), bounds (the parts), sec (the part drawn)}
  menu: null,  // open type menu: {resolve}
  caret: null, // caret mode: {noteId, words, anchor, head, goalX, lines}
  chain: Promise.resolve(),  // actions run one after another, each seeing the last one's result
};

// Keys pressed faster than the server answers must not act on a stale selection.
function enqueue(fn) {
  state.chain = state.chain.then(fn).catch((e) => say(`Error: ${e.message}`, true));
  return state.chain;
}

// ---------------------------------------------------------------- server calls
async function api(method, path, body) {
  const opts = { method, headers: { "X-Annotator": state.who } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const resp = await fetch(path, opts);
  const data = resp.headers.get("content-type")?.includes("json") ? await resp.json() : null;
  if (!resp.ok) {
    const detail = data && data.detail ? (typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail)) : resp.statusText;
    const err = new Error(`${resp.status}: ${detail}`);
    err.status = resp.status;
    err.stale = !!(data && data.stale);
    throw err;
  }
  return data;
}

function say(msg, err) {
  const s = $("status");
  s.textContent = msg;
  s.className = err ? "err" : "";
}

// A write refused because the page is stale (another tab or person changed the note since it was
// read) is not retried: the page says so and reloads what is stored, so nothing is overwritten.
async function guarded(fn) {
  try {
    return await fn();
  } catch (e) {
    say(`Not saved: ${e.message}`, true);
    if (e.stale) await reloadStale();
    return undefined;
  }
}

async function reloadStale() {
  const why = "Conflict: this note changed in another tab or page since it was shown; nothing was overwritten, reloaded.";
  if (state.mode === "review" && state.review.note) await openNote(state.review.note.id, false, why);
  else if (state.mode === "aggregate" && state.agg.note !== null) await openAgg(state.agg.note);
  say(why, true);
}

// ---------------------------------------------------------------- offsets: code points and UTF-16
// The server counts offsets in code points (Python string indices); this page's strings, DOM
// ranges and regular expressions count UTF-16 code units, in which a character outside the
// Basic Multilingual Plane (an emoji, U+1D538 ...) is two. Offsets become UTF-16 indices as a
// note's data arrives (unitsOf...) and code points again whenever they are sent or shown
// (at.point), through two tables made once per note text.
const isHigh = (c) => c >= 0xd800 && c <= 0xdbff, isLow = (c) => c >= 0xdc00 && c <= 0xdfff;

function offsetMap(text) {
  if (!/[\ud800-\udfff]/.test(text)) return { unit: (p) => p, point: (u) => u };
  const units = new Int32Array(text.length + 1), points = new Int32Array(text.length + 1);
  let p = 0, u = 0;
  while (u < text.length) {
    units[p] = u;
    points[u] = p;
    if (isHigh(text.charCodeAt(u)) && isLow(text.charCodeAt(u + 1))) points[++u] = p; // inside a pair: its start
    u++;
    p++;
  }
  units[p] = u;
  points[u] = p;
  const last = p;
  return { unit: (i) => units[Math.max(0, Math.min(i, last))], point: (i) => points[Math.max(0, Math.min(i, u))] };
}

function unitsOfSpan(at, sp) {
  if (sp) { sp.start = at.unit(sp.start); sp.end = at.unit(sp.end); }
  return sp;
}

function unitsOfDecision(at, d) {
  if (d) { unitsOfSpan(at, d); d.item_start = at.unit(d.item_start); d.item_end = at.unit(d.item_end); }
  return d;
}

// `start-end` as the server and the exported files count them.
function shownOffsets(at, s, e) { return `${at.point(s)}-${at.point(e)}`; }

// ---------------------------------------------------------------- text and pages
// Text is laid out in columns exactly one screen wide: each column is a page and
// the page shown is chosen by scrolling the column box sideways (no scroll bars).
// A long note is cut into parts of about SECTION characters (at a line end outside every
// span) and only the part being read is in the page: what one change costs to paint grows
// with what is drawn, so a note of 10,000 spans costs no more per key than one of 300.
const SECTION = 12000;

function sectionBounds(text, marks) {
  const out = [];
  let s = 0, i = 0;
  while (s < text.length) {
    let e = s + SECTION;
    if (e >= text.length - SECTION / 4) e = text.length;
    else {
      const nl = text.indexOf("\n", e);
      e = nl >= 0 && nl < e + SECTION / 2 ? nl + 1 : Math.max(e, text.indexOf(" ", e) + 1 || text.length);
      for (;;) {  // never inside a mark
        while (i < marks.length && marks[i].end <= e) i++;
        let j = i, past = e;
        while (j < marks.length && marks[j].start < e) { past = Math.max(past, marks[j].end); j++; }
        if (past === e) break;
        e = past;
      }
      if (isLow(text.charCodeAt(e)) && isHigh(text.charCodeAt(e - 1))) e++;
    }
    out.push([s, Math.min(e, text.length)]);
    s = e;
  }
  return out.length ? out : [[0, 0]];
}

function sectionOf(st, off) {
  let k = 0;
  while (k < st.bounds.length - 1 && off >= st.bounds[k][1]) k++;
  return k;
}

// Draw the marks over the text: the part that holds `focus` (a character offset), else the
// part shown before when it is the same text, else the first one. `marks` is a list, or a
// function giving it as it is now (a part drawn later shows the decisions made since).
// Returns whether the part drawn is the one shown before (its page can then be kept).
function renderText(el, text, marks, focus) {
  const old = state.texts[el.id], make = typeof marks === "function" ? marks : () => marks;
  const st = { text, make, bounds: sectionBounds(text, make()), sec: 0 };
  if (focus !== undefined && focus !== null) st.sec = sectionOf(st, focus);
  else if (old && old.text === text) st.sec = Math.min(old.sec, st.bounds.length - 1);
  state.texts[el.id] = st;
  const kept = !!old && old.text === text && old.sec === st.sec;
  const seenEnd = !!old && old.text === text && state.pages[el.id] && state.pages[el.id].seenEnd;
  if (!kept) delete state.pages[el.id];
  drawSection(el);
  if (seenEnd) state.pages[el.id].seenEnd = true;  // the end was read, whichever part is drawn now
  return kept;
}

function drawSection(el) {
  const st = state.texts[el.id], [from, to] = st.bounds[st.sec], text = st.text;
  el.textContent = "";
  const frag = document.createDocumentFragment();
  let pos = from;
  const piece = (tag, s, e) => {
    const node = document.createElement(tag);
    node.dataset.s = String(s);
    node.textContent = text.slice(s, e);
    frag.appendChild(node);
    return node;
  };
  for (const m of st.make()) {
    if (m.start < pos || m.end > to) continue; // overlapping marks are never drawn twice
    if (m.start > pos) piece("span", pos, m.start);
    const node = piece("mark", m.start, m.end);
    node.className = m.cls;
    if (m.key !== undefined) node.dataset.key = String(m.key);
    if (m.id !== undefined) node.dataset.id = String(m.id);
    if (m.conf !== undefined && m.conf !== null) node.dataset.conf = m.conf.toFixed(2);
    if (m.sub) node.dataset.sub = m.sub;
    if (m.title) node.title = m.title;
    pos = m.end;
  }
  if (pos < to) piece("span", pos, to);
  el.appendChild(frag);
  if (el.id === "review-text" && state.caret && state.caret.sec !== st.sec) caretSection();
  layoutPages(el);
}

// Show part `sec` of a text, at its page `page` ("last": its last page).
function gotoSection(el, sec, page) {
  const st = state.texts[el.id], p = state.pages[el.id];
  const seenEnd = p && p.seenEnd;
  st.sec = sec;
  delete state.pages[el.id];
  drawSection(el);
  state.pages[el.id].seenEnd = seenEnd;
  showPage(el, page === "last" ? state.pages[el.id].count - 1 : page);
}

function layoutPages(el) {
  const gap = 48;
  const width = el.clientWidth;
  el.style.columnWidth = width + "px";
  el.style.columnGap = gap + "px";
  const stride = width + gap;
  const count = Math.max(1, Math.round((el.scrollWidth + gap) / stride));
  const old = state.pages[el.id];
  state.pages[el.id] = { page: old ? Math.min(old.page, count - 1) : 0, count, stride, seenEnd: old && old.seenEnd };
  showPage(el, state.pages[el.id].page);
}

function showPage(el, k) {
  const p = state.pages[el.id], st = state.texts[el.id];
  if (st && k >= p.count && st.sec < st.bounds.length - 1) return gotoSection(el, st.sec + 1, 0);
  if (st && k < 0 && st.sec > 0) return gotoSection(el, st.sec - 1, "last");
  p.page = Math.max(0, Math.min(k, p.count - 1));
  el.scrollLeft = p.page * p.stride;
  const parts = st ? st.bounds.length : 1, sec = st ? st.sec : 0;
  if (sec === parts - 1 && p.page === p.count - 1) p.seenEnd = true;
  if (activeText() === el) {
    const last = sec === parts - 1 && p.page + 1 >= p.count;
    $("pageinfo").textContent = `page ${p.page + 1}/${p.count}` + (parts > 1 ? ` of part ${sec + 1}/${parts}` : "") +
      (last ? " (end)" : " \u25b8 Space");
  }
}

function pageOfNode(el, node) {
  const p = state.pages[el.id];
  const x = node.getBoundingClientRect().left - el.getBoundingClientRect().left + el.scrollLeft;
  return Math.max(0, Math.floor((x + 2) / p.stride));
}

function revealNode(el, node) {
  if (!node) return;
  const k = pageOfNode(el, node);
  if (k !== state.pages[el.id].page) showPage(el, k);
}

// Bring the mark `selector` at character `off` into view, drawing its part of the text first.
function reveal(el, off, selector) {
  const st = state.texts[el.id];
  if (st && off !== undefined && off !== null) {
    const sec = sectionOf(st, off);
    if (sec !== st.sec) gotoSection(el, sec, 0);
  }
  revealNode(el, el.querySelector(selector));
}

function activeText() {
  return { review: $("review-text"), aggregate: $("agg-text"), surrogates: $("sur-text") }[state.mode] || null;
}

// Character offsets of the current text selection inside a rendered text.
function selectionOffsets(el) {
  const sel = window.getSelection();
  if (!sel || sel.rangeCount === 0 || sel.isCollapsed) return null;
  const r = sel.getRangeAt(0);
  if (!el.contains(r.startContainer) || !el.contains(r.endContainer)) return null;
  const at = (node, off) => {
    if (node.nodeType === Node.TEXT_NODE) return Number(node.parentElement.dataset.s) + off;
    if (node === el) {
      const child = el.childNodes[off];
      const st = state.texts[el.id];
      return child ? Number(child.dataset.s) : st.bounds[st.sec][1];
    }
    const child = node.childNodes[off];
    if (child && child.dataset) return Number(child.dataset.s);
    return Number(node.dataset.s) + node.textContent.length;
  };
  let s = at(r.startContainer, r.startOffset), e = at(r.endContainer, r.endOffset);
  if (e < s) [s, e] = [e, s];
  return [s, e];
}

// Word edges: a span grows or shrinks one word (or punctuation run) at a time. Characters are
// whole code points (a surrogate pair is one character, never split).
const WORD = /[\p{L}\p{N}]/u;
function charClass(c) { return c === undefined ? "end" : /\s/.test(c) ? "space" : WORD.test(c) ? "word" : c; }
function charAt(text, i) { // the character that starts at UTF-16 index i
  if (i >= text.length) return undefined;
  return isHigh(text.charCodeAt(i)) && isLow(text.charCodeAt(i + 1)) ? text.slice(i, i + 2) : text[i];
}
function charBefore(text, i) { // the character that ends at UTF-16 index i
  if (i <= 0) return undefined;
  return i >= 2 && isLow(text.charCodeAt(i - 1)) && isHigh(text.charCodeAt(i - 2)) ? text.slice(i - 2, i) : text[i - 1];
}
function insidePair(text, i) { return i > 0 && isLow(text.charCodeAt(i)) && isHigh(text.charCodeAt(i - 1)); }
function snapToWords(text, s, e) {
  if (insidePair(text, s)) s--;
  if (insidePair(text, e)) e++;
  while (s > 0 && charClass(charBefore(text, s)) === "word" && charClass(charAt(text, s)) === "word") s -= charBefore(text, s).length;
  while (e < text.length && charClass(charAt(text, e)) === "word" && charClass(charBefore(text, e)) === "word") e += charAt(text, e).length;
  while (s < e && /\s/.test(text[s])) s++;
  while (e > s && /\s/.test(text[e - 1])) e--;
  return [s, e];
}
function prevEdge(text, i) { // start of the word before i (skipping white space)
  let j = i;
  while (j > 0 && /\s/.test(text[j - 1])) j--;
  if (j === 0) return 0;
  const c = charBefore(text, j);
  if (charClass(c) !== "word") return j - c.length;
  while (j > 0 && charClass(charBefore(text, j)) === "word") j -= charBefore(text, j).length;
  return j;
}
function nextEdge(text, i) { // end of the word after i (skipping white space)
  let j = i;
  while (j < text.length && /\s/.test(text[j])) j++;
  if (j >= text.length) return text.length;
  const c = charAt(text, j);
  if (charClass(c) !== "word") return j + c.length;
  while (j < text.length && charClass(charAt(text, j)) === "word") j += charAt(text, j).length;
  return j;
}
function grown(text, s, e, how) {
  if (how === "growLeft") return [prevEdge(text, s), e];
  if (how === "growRight") return [s, nextEdge(text, e)];
  if (how === "shrinkLeft") {
    let j = nextEdge(text, s);
    while (j < e && /\s/.test(text[j])) j++;
    return j < e ? [j, e] : [s, e];
  }
  let j = prevEdge(text, e);
  while (j > s && /\s/.test(text[j - 1])) j--;
  return j > s ? [s, j] : [s, e];
}

// ---------------------------------------------------------------- type menu
// Types for a filter: an exact match first, then types that start with it, then types whose
// category starts with it, then any type that contains it.
function rankTypes(q) {
  if (!q) return state.subtypes.slice();
  const rank = (t) => (t === q ? 0 : t.startsWith(q) ? 1 : state.parentOf[t].startsWith(q) ? 2 : t.includes(q) ? 3 : 9);
  return state.subtypes.map((t, i) => [rank(t), i, t]).filter((x) => x[0] < 9)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
}

function chooseType(current) {
  const menu = $("typemenu"), input = $("typefilter"), list = $("typelist"), note = $("typenote");
  menu.hidden = false;
  input.value = "";
  let sel = Math.max(0, state.subtypes.indexOf(current));
  const draw = () => {
    const q = input.value.trim().toUpperCase();
    const shown = rankTypes(q);
    if (q) sel = 0;
    list.textContent = "";
    shown.forEach((t, i) => {
      const li = document.createElement("li");
      li.textContent = `${t} (${state.parentOf[t]})`;
      li.className = i === sel ? "sel" : "";
      li.onclick = () => finish(t);
      list.appendChild(li);
    });
    list.querySelector("li.sel")?.scrollIntoView({ block: "nearest" });
    note.textContent = shown.length ? "Enter picks, arrows move, Esc or a click outside cancels." : `No type matches \u201c${input.value.trim()}\u201d.`;
    note.className = shown.length ? "" : "err";
    return shown;
  };
  let shown = draw();
  input.focus();
  let finish;
  const outside = (ev) => { if (!menu.contains(ev.target)) { ev.preventDefault(); finish(null); } };
  const done = new Promise((resolve) => {
    finish = (value) => {
      menu.hidden = true;
      input.onkeydown = input.oninput = null;
      document.removeEventListener("mousedown", outside, true);
      state.menu = null;
      activeText()?.focus();
      resolve(value);
    };
  });
  state.menu = { finish };
  document.addEventListener("mousedown", outside, true);
  input.oninput = () => { shown = draw(); };
  input.onkeydown = (ev) => {
    ev.stopPropagation();
    if (ev.key === "Escape") { ev.preventDefault(); finish(null); }
    else if (ev.key === "Enter") { ev.preventDefault(); if (shown[sel]) finish(shown[sel]); else draw(); }
    else if (ev.key === "ArrowDown") { ev.preventDefault(); sel = Math.min(sel + 1, shown.length - 1); draw(); }
    else if (ev.key === "ArrowUp") { ev.preventDefault(); sel = Math.max(sel - 1, 0); draw(); }
  };
  return done;
}

// ---------------------------------------------------------------- review mode
function visibleSpans() { return state.review.note ? state.review.note.spans : []; }

function drawReview() {
  const n = state.review.note, el = $("review-text");
  if (!n) {
    state.caret = null;
    drawCaret();
    el.textContent = "No note to review: the queue is empty for this annotator.";
    $("where").textContent = "";
    $("current").textContent = "";
    return;
  }
  const page = state.pages[el.id] ? state.pages[el.id].page : 0, cur = n.spans[state.review.cur];
  if (renderText(el, n.text, () => n.spans.map((sp, i) => reviewMark(sp, i)), cur ? cur.start : undefined)) showPage(el, page);
  if (state.caret) state.caret.lines = null;
  drawCaret();
  $("where").textContent = `note ${n.doc_id}` + (n.review && n.review.state === "done" ? " (done)" : "");
  drawCurrent();
}

// Below this confidence a suggestion is drawn as uncertain (style.css: mark.suggested.low).
const LOW_CONFIDENCE = 0.5;

function reviewMark(sp, i) {
  return {
    start: sp.start, end: sp.end, id: sp.id,
    cls: `c-${sp.category} ${sp.status}` + (i === state.review.cur ? " cur" : "")
      + (sp.status === "suggested" && sp.confidence !== null && sp.confidence < LOW_CONFIDENCE ? " low" : ""),
    conf: sp.status === "suggested" && sp.confidence !== null && sp.confidence < 0.995 ? sp.confidence : undefined,
    sub: sp.subtype,  // shown beside the span, without selecting it
    title: `${sp.subtype} (${sp.status})`,
  };
}

// A change that keeps the span's extent redraws its mark and the side panel only: on a note
// of hundreds of spans a full redraw per key costs tens of milliseconds.
function redrawMark(sp, i) {
  const node = $("review-text").querySelector(`mark[data-id="${sp.id}"]`);
  if (!node) return false;
  const m = reviewMark(sp, i);
  node.className = m.cls;
  node.title = m.title;  // a confidence shown stays in place (hidden once accepted): no new layout
  if (node.dataset.sub !== m.sub) node.dataset.sub = m.sub;  // a new type: its label only
  return true;
}

function setCur(i) {
  const n = state.review.note, old = n && n.spans[state.review.cur];
  state.review.cur = i;
  if (old) redrawMark(old, -1);
  const sp = n && n.spans[i];
  if (sp) redrawMark(sp, i);
  drawCurrent();
}

function drawCurrent() {
  const n = state.review.note, sp = n && n.spans[state.review.cur];
  const box = $("current");
  box.textContent = "";
  const line = (label, value) => {
    const d = document.createElement("div");
    const b = document.createElement("b");
    b.textContent = label + ": ";
    d.appendChild(b);
    d.appendChild(document.createTextNode(value));
    box.appendChild(d);
  };
  if (sp) {
    line("Span", `${state.review.cur + 1} of ${n.spans.length}`);
    line("Type", `${sp.subtype} (${sp.category})`);
    line("Status", sp.status);
    line("Model confidence", sp.confidence === null ? "-" : sp.confidence.toFixed(2));
    line("Offsets", shownOffsets(n.at, sp.start, sp.end));
    if (sp.origin === "model") whyLine(box, n, sp);
  } else {
    line("Span", n && n.spans.length ? "none selected (j: next)" : "no spans on this note");
  }
  const c = caretOn();
  if (c) {
    const [s, e] = caretOffsets(c), k = Math.abs(c.head - c.anchor) + 1;
    line("Caret", `${k} word${k > 1 ? "s" : ""}, offsets ${shownOffsets(n.at, s, e)} (s adds, Esc leaves)`);
  }
  if (n) {
    const sug = n.spans.filter((s) => s.status === "suggested").length;
    $("counts").textContent = `${n.spans.length} spans, ${sug} undecided`;
  }
}

// Why the model suggested a span: the steps that found, widened or retyped it (tag --explain),
// asked for with the button (the model tags the note again), then kept with the note.
function whyLine(box, n, sp) {
  const d = document.createElement("div");
  const b = document.createElement("b");
  b.textContent = "Why: ";
  d.appendChild(b);
  if (n.explain) {
    d.appendChild(document.createTextNode(whySteps(n, sp)));
  } else {
    const btn = document.createElement("button");
    btn.type = "button";
    btn.textContent = "ask the model";
    btn.addEventListener("click", () => enqueue(async () => {
      n.explain = await api("GET", `/api/notes/${n.id}/explain`);
      if (state.review.note === n) drawCurrent();
    }));
    d.appendChild(btn);
  }
  box.appendChild(d);
}

function whySteps(n, sp) {
  if (n.explain.model_version !== n.model_version) return "the model changed since it suggested this span";
  const hit = n.explain.spans.find((s) => s.start === sp.start && s.end === sp.end && s.type === sp.subtype);
  if (!hit) return "the model no longer suggests this span";
  return hit.steps.map((x) => `${x.step} ${x.action}` + (x.reason ? ` (${x.reason})` : "")).join("; ");
}

function curMark() {
  const sp = visibleSpans()[state.review.cur];
  return sp ? $("review-text").querySelector(`mark[data-id="${sp.id}"]`) : null;
}

function revealCur() {
  const sp = visibleSpans()[state.review.cur];
  if (sp) reveal($("review-text"), sp.start, `mark[data-id="${sp.id}"]`);
}

function moveSpan(step) {
  const spans = visibleSpans();
  if (!spans.length) return;
  let i = state.review.cur + step;
  if (state.review.cur < 0 && step < 0) i = spans.length - 1;
  setCur(Math.max(0, Math.min(i, spans.length - 1)));
  revealCur();
}

function replaceSpan(updated) {
  const n = state.review.note;
  const i = n.spans.findIndex((s) => s.id === updated.id);
  const old = n.spans[i];
  if (updated.status === "deleted") {
    n.spans.splice(i, 1);
    const node = $("review-text").querySelector(`mark[data-id="${updated.id}"]`);
    state.review.cur = Math.min(i, n.spans.length - 1);
    if (node) {  // the deleted span's text stays where it was, as plain text
      const plain = document.createElement("span");
      plain.dataset.s = node.dataset.s;
      plain.textContent = node.textContent;
      node.replaceWith(plain);
      if (state.caret) state.caret.lines = null;
      setCur(state.review.cur);
    } else drawReview();
  } else if (old && old.start === updated.start && old.end === updated.end) {
    n.spans[i] = updated;
    if (!redrawMark(updated, i)) drawReview();
    else setCur(i);
  } else {
    n.spans[i] = updated;
    n.spans.sort((a, b) => a.start - b.start || a.end - b.end);
    state.review.cur = n.spans.findIndex((s) => s.id === updated.id);
    drawReview();
  }
  revealCur();
}

async function patchCurrent(change, what) {
  const sp = visibleSpans()[state.review.cur];
  if (!sp) { say("No span selected (j/k to move between spans)."); return; }
  const at = state.review.note.at;
  const n = state.review.note, body = Object.assign({ version: n.version }, change);
  if (body.start !== undefined) { body.start = at.point(body.start); body.end = at.point(body.end); }
  const updated = await guarded(() => api("PATCH", `/api/spans/${sp.id}`, body));
  if (!updated) return;
  n.version = updated.version;
  n.changed = true;
  if (updated.status === "deleted") state.review.undo = { id: sp.id, status: sp.status, noteId: n.id };
  replaceSpan(unitsOfSpan(at, updated));
  say(`Saved: ${what}.` + (updated.status === "deleted" ? " (u undoes it)" : ""));
  drawUndo();
}

// The last deletion on this note can be undone (u, or the button): the span comes back as it was.
function drawUndo() {
  const u = state.review.undo, b = $("undo");
  if (b) b.disabled = !(u && state.review.note && u.noteId === state.review.note.id);
}

async function undoDelete() {
  const u = state.review.undo, n = state.review.note;
  if (!u || !n || u.noteId !== n.id) return say("Nothing to undo on this note.");
  const r = await guarded(() => api("PATCH", `/api/spans/${u.id}`, { status: u.status, version: n.version }));
  if (!r) return;
  state.review.undo = null;
  n.version = r.version;
  n.spans.push(unitsOfSpan(n.at, r));
  n.spans.sort((a, b) => a.start - b.start || a.end - b.end);
  state.review.cur = n.spans.findIndex((x) => x.id === r.id);
  drawReview();
  revealCur();
  drawUndo();
  say(`Saved: deletion undone (${r.subtype}, ${r.status}).`);
}

// An audit counts a note's reading time while it is on screen: say when the page leaves it and comes back.
document.addEventListener("visibilitychange", () => {
  const n = state.review && state.review.note;
  if (n && state.who) api("POST", `/api/notes/${n.id}/${document.hidden ? "hidden" : "shown"}`, {}).catch(() => {});
});

async function openNote(id, pushHistory = true, notice = "") {
  const n = await guarded(() => api("POST", `/api/notes/${id}/open`, {}));
  if (!n) return;
  n.changed = false;
  if (pushHistory && state.review.note && state.review.note.id !== id) state.review.history.push(state.review.note.id);
  n.at = offsetMap(n.text);
  n.spans.forEach((sp) => unitsOfSpan(n.at, sp));
  state.review.note = n;
  state.review.cur = -1;
  drawUndo();
  state.caret = null;
  delete state.pages["review-text"];
  delete state.texts["review-text"];
  drawReview();
  say(`${notice ? notice + " " : ""}Opened note ${n.doc_id}: ${n.spans.length} spans.`);
}

// Leaving review mode (or changing name) before acting on the note just opened: it is released,
// so looking at the page (an adjudicator on the way to aggregate mode) leaves no open note.
async function releaseUntouched() {
  const n = state.review.note;
  if (!n || n.changed || (n.review && n.review.state === "done")) return;
  state.review.note = null;
  await guarded(() => api("POST", `/api/notes/${n.id}/release`, { version: n.version }));
}

async function nextInQueue() {
  const q = await guarded(() => api("GET", "/api/queue?limit=1"));
  if (!q) return;
  if (q.ids.length) await openNote(q.ids[0]);
  else { state.review.note = null; drawReview(); say("Queue empty: every note is reviewed."); }
}

async function finishNote() {
  const n = state.review.note;
  if (!n) return;
  const p = state.pages["review-text"];
  if (p && !p.seenEnd) {
    showPage($("review-text"), p.page + 1);
    caretToPage();
    say("Read to the end first: next page shown (n again on the last page).");
    return;
  }
  const r = await guarded(() => api("POST", `/api/notes/${n.id}/done`, { version: n.version }));
  if (!r) return;
  const extra = r.accepted_undecided ? ` (${r.accepted_undecided} undecided suggestions accepted)` : "";
  const notice = `Note ${n.doc_id} done${extra}.` + (r.retraining ? " Retraining started." : "");
  say(notice);
  state.review.history.push(n.id);
  if (r.next !== null) await openNote(r.next, false, notice);
  else { state.review.note = null; drawReview(); say(`${notice} Queue empty.`); }
}

async function addFromSelection() {
  const n = state.review.note;
  if (!n) return;
  const c = caretOn();
  const off = c ? caretOffsets(c) : selectionOffsets($("review-text"));
  if (!off) { say("Select text first (with the mouse, or c for the keyboard caret), then press s."); return; }
  const [s, e] = c ? off : snapToWords(n.text, off[0], off[1]);
  if (s >= e) return;
  const type = await chooseType(state.review.lastType);
  if (!type) return;
  state.review.lastType = type;
  const sp = unitsOfSpan(n.at, await guarded(() => api("POST", `/api/notes/${n.id}/spans`,
                                                        { start: n.at.point(s), end: n.at.point(e), subtype: type, version: n.version })));
  if (!sp) return;
  n.version = sp.version;
  n.changed = true;
  window.getSelection().removeAllRanges();
  if (c) c.anchor = c.head;
  n.spans.push(sp);
  n.spans.sort((a, b) => a.start - b.start || a.end - b.end);
  state.review.cur = n.spans.findIndex((x) => x.id === sp.id);
  drawReview();
  say(`Saved: new ${type} span.`);
}

// ---------------------------------------------------------------- caret: selecting with the keyboard
// A word cursor in the review text. Words are runs of letters and digits (with their
// combining marks), so a span made with it starts and ends on token boundaries.
const CARET_WORD = /(?:[\p{L}\p{N}]\p{M}*)+/gu;
const CARET_KEYS = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down", Home: "home", End: "end" };
const CARET_HINT = "\u2190/\u2192 word, \u2191/\u2193 line, Home/End, Shift extends, s adds, Esc leaves";

function caretOn() {
  const c = state.caret, n = state.review.note;
  return c && state.mode === "review" && n && c.noteId === n.id ? c : null;
}

function caretOffsets(c) {
  return [c.words[Math.min(c.anchor, c.head)][0], c.words[Math.max(c.anchor, c.head)][1]];
}

// The rendered piece (span or mark) that holds character `off` of the text.
function pieceAt(el, off) {
  const kids = el.children;
  let lo = 0, hi = kids.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (Number(kids[mid].dataset.s) <= off) lo = mid; else hi = mid - 1;
  }
  return kids[lo];
}

function textRange(el, s, e) {
  const a = pieceAt(el, s), b = pieceAt(el, e - 1), r = document.createRange();
  r.setStart(a.firstChild, s - Number(a.dataset.s));
  r.setEnd(b.firstChild, e - Number(b.dataset.s));
  return r;
}

// Where word i is drawn: its page (column) and its box inside that column.
function wordBox(el, c, i) {
  const r = textRange(el, c.words[i][0], c.words[i][1]).getClientRects()[0];
  const stride = state.pages[el.id].stride;
  if (!r) return { col: state.pages[el.id].page, left: 0, right: 0, top: 0, height: 0 };
  const x = r.left - el.getBoundingClientRect().left + el.scrollLeft;
  const col = Math.max(0, Math.floor((x + 2) / stride));
  return { col, left: x - col * stride, right: x - col * stride + r.width, top: r.top, height: r.height };
}

// Visual lines in reading order (a new column starts a new line), cached until the text is drawn again.
function caretLines(el, c) {
  if (c.lines) return c.lines;
  const boxes = c.words.map((_, i) => wordBox(el, c, i));
  const lineOf = new Int32Array(boxes.length), lines = [];
  boxes.forEach((b, i) => {
    const prev = i ? boxes[i - 1] : null;
    if (!prev || b.col !== prev.col || Math.abs(b.top - prev.top) > Math.max(b.height, prev.height) / 2) lines.push([i, i]);
    lines[lines.length - 1][1] = i;
    lineOf[i] = lines.length - 1;
  });
  c.lines = { boxes, lineOf, lines };
  return c.lines;
}

function firstWordOnPage(el, c, page) {
  let lo = 0, hi = c.words.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (wordBox(el, c, mid).col >= page) hi = mid; else lo = mid + 1;
  }
  return lo;
}

function drawCaret() {
  const c = caretOn(), el = $("review-text"), was = el.classList.contains("caret");
  el.classList.toggle("caret", !!c);
  $("caretinfo").hidden = !c;
  const marks = window.CSS && CSS.highlights && typeof Highlight === "function" ? CSS.highlights : null;
  if (!c) {
    if (marks) { marks.delete("caret-sel"); marks.delete("caret-head"); }
    else if (was) window.getSelection().removeAllRanges();
    return;
  }
  const [s, e] = caretOffsets(c);
  const sel = textRange(el, s, e);
  if (!marks) {
    const ws = window.getSelection();
    ws.removeAllRanges();
    ws.addRange(sel);
    return;
  }
  const head = new Highlight(textRange(el, c.words[c.head][0], c.words[c.head][1]));
  head.priority = 1;
  marks.set("caret-sel", new Highlight(sel));
  marks.set("caret-head", head);
}

function caretSay() {
  const c = caretOn();
  if (!c) return;
  const [s, e] = caretOffsets(c), k = Math.abs(c.head - c.anchor) + 1;
  const n = state.review.note, chars = Array.from(n.text.slice(s, e).replace(/\s+/g, " "));
  const t = chars.length > 60 ? chars.slice(0, 57).join("") + "..." : chars.join("");
  say(`Caret: \u201c${t}\u201d (${k} word${k > 1 ? "s" : ""}, ${shownOffsets(n.at, s, e)}). ${CARET_HINT}.`);
}

function caretShow() {
  const c = caretOn(), el = $("review-text");
  if (!c) return;
  drawCaret();
  const col = wordBox(el, c, c.head).col;
  if (col !== state.pages[el.id].page) showPage(el, col);
  drawCurrent();
  caretSay();
}

// The words of the part of the note drawn (the caret moves inside it; paging takes it along).
function sectionWords() {
  const st = state.texts["review-text"], [from, to] = st.bounds[st.sec];
  return Array.from(st.text.slice(from, to).matchAll(CARET_WORD), (m) => [from + m.index, from + m.index + m[0].length]);
}

function caretSection() {
  const c = state.caret;
  c.words = sectionWords();
  c.sec = state.texts["review-text"].sec;
  c.anchor = c.head = 0;
  c.lines = null;
  c.goalX = null;
}

function caretEnter() {
  const n = state.review.note, el = $("review-text");
  if (!n || !state.pages[el.id]) return say("No note open.");
  const words = sectionWords();
  if (!words.length) return say("This note has no words to select.");
  const c = { noteId: n.id, words, sec: state.texts[el.id].sec, anchor: 0, head: 0, goalX: null, lines: null };
  state.caret = c;
  const page = state.pages[el.id].page, sp = visibleSpans()[state.review.cur];
  let i = firstWordOnPage(el, c, page);
  const after = sp ? words.findIndex((w) => w[0] >= sp.end) : -1;
  if (after >= 0 && wordBox(el, c, after).col === page) i = after;
  c.anchor = c.head = i;
  caretShow();
}

function caretLeave() {
  if (!state.caret) return;
  state.caret = null;
  drawCaret();
  drawCurrent();
  say("Caret mode off.");
}

function caretMove(how, extend) {
  const c = caretOn(), el = $("review-text");
  if (!c) return;
  const last = c.words.length - 1;
  let h = c.head;
  if (how === "left" || how === "right") {
    h = Math.max(0, Math.min(last, h + (how === "left" ? -1 : 1)));
    c.goalX = null;
  } else {
    const { boxes, lineOf, lines } = caretLines(el, c), line = lineOf[h];
    if (how === "home" || how === "end") {
      h = lines[line][how === "home" ? 0 : 1];
      c.goalX = null;
    } else {
      const to = line + (how === "up" ? -1 : 1);
      if (to >= 0 && to < lines.length) {
        if (c.goalX === null) c.goalX = boxes[h].left;
        const x = c.goalX, away = (b) => (x < b.left ? b.left - x : x > b.right ? x - b.right : 0);
        h = lines[to][0];
        for (let i = lines[to][0]; i <= lines[to][1]; i++) if (away(boxes[i]) < away(boxes[h])) h = i;
      }
    }
  }
  c.head = h;
  if (!extend) c.anchor = h;
  caretShow();
}

// Paging in caret mode takes the caret along to the first word of the page shown.
function caretToPage() {
  const c = caretOn(), el = $("review-text");
  if (!c || !c.words.length) return;
  const page = state.pages[el.id].page;
  if (wordBox(el, c, c.head).col === page) return;
  c.anchor = c.head = firstWordOnPage(el, c, page);
  c.goalX = null;
  caretShow();
}

const reviewKeys = {
  j: () => moveSpan(1), k: () => moveSpan(-1),
  a: () => patchCurrent({ status: "accepted" }, "accepted"),
  x: () => patchCurrent({ status: "deleted" }, "deleted"), Delete: () => reviewKeys.x(),
  t: async () => {
    const sp = visibleSpans()[state.review.cur];
    if (!sp) return say("No span selected.");
    const type = await chooseType(sp.subtype);
    if (type) { state.review.lastType = type; await patchCurrent({ subtype: type, status: "accepted" }, `type ${type}`); }
  },
  "[": () => resize("growLeft"), "]": () => resize("growRight"),
  "{": () => resize("shrinkLeft"), "}": () => resize("shrinkRight"),
  s: () => addFromSelection(),
  c: () => (caretOn() ? caretLeave() : caretEnter()),
  A: async () => {
    const n = state.review.note;
    if (!n) return;
    const r = await guarded(() => api("POST", `/api/notes/${n.id}/accept-all`, { version: n.version }));
    if (r) { n.version = r.version; n.changed = true; n.spans.forEach((sp) => { if (sp.status === "suggested") sp.status = "accepted"; }); drawReview(); say(`Saved: ${r.accepted} accepted.`); }
  },
  u: () => undoDelete(),
  n: () => finishNote(),
  p: async () => { const id = state.review.history.pop(); if (id !== undefined) await openNote(id, false); },
};

async function resize(how) {
  const sp = visibleSpans()[state.review.cur];
  if (!sp) return say("No span selected.");
  const [s, e] = grown(state.review.note.text, sp.start, sp.end, how);
  if (s === sp.start && e === sp.end) return say("The span cannot change that way.");
  await patchCurrent({ start: s, end: e, status: "accepted" }, `offsets ${shownOffsets(state.review.note.at, s, e)}`);
}

// The note under a table of items (aggregate and surrogate modes), current item in view.
function drawItemText(id, d, marks, cur) {
  const el = $(id);
  const page = state.pages[id] ? state.pages[id].page : 0, list = typeof marks === "function" ? marks() : marks;
  const m = list[cur];
  if (renderText(el, d.text, marks, m ? m.start : undefined)) showPage(el, page);
  reveal(el, m ? m.start : undefined, `mark[data-key="${cur}"]`);
  $("where").textContent = `note ${d.doc_id}`;
}

// ---------------------------------------------------------------- aggregate mode
function extentText(text, s, e) { return text.slice(s, e).replace(/\s+/g, " "); }

async function loadAggNotes() {
  const r = await guarded(() => api("GET", "/api/aggregate"));
  if (!r) return;
  state.agg.notes = r.notes;
  fillSelect($("agg-note"), r.notes, (n) => `${n.doc_id} (${n.done} done${n.changed_after_adjudication ? ", REVIEW CHANGED after adjudication" : n.adjudicated ? ", adjudicated" : n.conflict ? ", CONFLICT" : ""})`);
  if (r.notes.length && !state.agg.note) await openAgg(r.notes[0].id);
  else if (!r.notes.length) { $("agg-table").textContent = ""; say("No note has been finished by an annotator yet."); }
}

function fillSelect(sel, notes, label) {
  const keep = sel.value;
  sel.textContent = "";
  for (const n of notes) {
    const o = document.createElement("option");
    o.value = String(n.id);
    o.textContent = label(n);
    sel.appendChild(o);
  }
  if (keep) sel.value = keep;
}

async function openAgg(id, voters) {
  if (state.agg.note !== id) state.agg.voters = null;  // each note starts with its default voters
  const v = voters || state.agg.voters;
  const q = v ? `?voters=${encodeURIComponent(v.join(","))}` : "";
  const d = await guarded(() => api("GET", `/api/aggregate/${id}${q}`));
  if (!d) return;
  const at = d.at = offsetMap(d.text);
  for (const it of d.items) {
    it.item_start = at.unit(it.item_start);
    it.item_end = at.unit(it.item_end);
    unitsOfSpan(at, it.suggest);
    unitsOfDecision(at, it.decision);
    for (const sel of Object.values(it.by_voter)) for (const x of sel) { x[0] = at.unit(x[0]); x[1] = at.unit(x[1]); }
  }
  if (state.agg.note !== id) { state.agg.cur = 0; delete state.pages["agg-text"]; delete state.texts["agg-text"]; }
  state.agg.note = id;
  state.agg.data = d;
  $("agg-note").value = String(id);
  drawAgg();
}

function itemExtent(it) {
  const d = it.decision;
  return d ? { start: d.start, end: d.end, subtype: d.subtype, phi: d.verdict === "phi" }
           : { start: it.suggest.start, end: it.suggest.end, subtype: it.suggest.subtype, phi: it.suggest.phi };
}

function drawAgg() {
  const d = state.agg.data;
  if (!d) return;
  const vbox = $("agg-voters");
  vbox.textContent = "voters:";
  for (const name of d.candidates) {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = d.voters.includes(name);
    box.disabled = d.adjudicated !== null;
    box.onchange = () => {
      state.agg.voters = [...vbox.querySelectorAll("input:checked")].map((b) => b.dataset.name);
      enqueue(() => openAgg(d.note_id));
    };
    box.dataset.name = name;
    label.append(" ", box, name);
    vbox.appendChild(label);
  }
  const open = d.items.filter((it) => !it.decision).length;
  $("agg-state").textContent = d.adjudicated ? `adjudicated by ${d.adjudicated.adjudicator}`
    : `${open} of ${d.items.length} items to decide` + (d.conflict ? " — in conflict: the reviewers disagree, not final until adjudicated" : "");
  $("agg-state").className = d.conflict ? "conflict" : "";
  const t = $("agg-table");
  t.textContent = "";
  const head = t.insertRow();
  const counted = new Set(d.counted);
  for (const h of ["Location", "PHI", "Correct", "Type", ...d.voters.map((v) => (counted.has(v) ? v : `${v} (shown, not counted)`)), "Decided"]) {
    const th = document.createElement("th"); th.textContent = h; head.appendChild(th);
  }
  d.items.forEach((it, i) => {
    const ext = itemExtent(it);
    const row = t.insertRow();
    row.className = i === state.agg.cur ? "cur" : "";
    row.onclick = () => { state.agg.cur = i; drawAgg(); };
    row.insertCell().textContent = `${d.doc_id}, ${d.at.point(it.item_start)}`;
    row.insertCell().textContent = ext.phi ? "\u2611" : "\u2610";
    const c = row.insertCell();
    c.textContent = ext.phi ? extentText(d.text, ext.start, ext.end) : "";
    c.className = `agree-${it.agreement}`;
    if (it.differs && it.differs.length) c.title = `the reviewers differ in ${it.differs.join(" and ")}`;
    const tc = row.insertCell();
    tc.textContent = ext.phi ? ext.subtype || "choose (t)" : "";
    if (ext.phi && !ext.subtype) tc.className = "pending";
    // each voter's own extent and type: a type correction shows as a disagreement
    for (const v of d.voters) {
      const vc = row.insertCell();
      vc.textContent = (it.by_voter[v] || []).map(([s, e, sub]) => `${extentText(d.text, s, e)} [${sub}]`).join(" | ");
      if (!counted.has(v)) vc.className = "shown";
    }
    const dc = row.insertCell();
    dc.textContent = it.decision ? `${it.decision.verdict === "phi" ? "PHI" : "not PHI"} (${it.decision.adjudicator})` : "open";
    dc.className = it.decision ? "approved" : "pending";
  });
  t.rows[state.agg.cur + 1]?.scrollIntoView({ block: "nearest" });
  const marks = d.items.map((it, i) => {
    const ext = itemExtent(it);
    return { start: ext.phi ? ext.start : it.item_start, end: ext.phi ? ext.end : it.item_end, key: i,
             cls: (ext.phi ? `c-${state.parentOf[ext.subtype] || "OTHER"} accepted` : "faint") + (i === state.agg.cur ? " cur" : "") };
  });
  drawItemText("agg-text", d, marks, state.agg.cur);
}

async function decide(verdict, change) {
  const d = state.agg.data, it = d && d.items[state.agg.cur];
  if (!it) return;
  const ext = Object.assign(itemExtent(it), change || {});
  if (verdict === "phi" && !ext.subtype) {  // the reviewers gave different types: the adjudicator picks one
    say("The reviewers disagree on the type: choose it.");
    ext.subtype = await chooseType(null);
    if (!ext.subtype) return;
  }
  const at = d.at;
  const r = await guarded(() => api("POST", `/api/aggregate/${d.note_id}/decisions`, {
    item_start: at.point(it.item_start), item_end: at.point(it.item_end), verdict,
    start: at.point(ext.start), end: at.point(ext.end), subtype: ext.subtype, version: d.version }));
  if (!r) return;
  d.version = r.version;
  it.decision = unitsOfDecision(at, r);
  if (!change && state.agg.cur < d.items.length - 1) state.agg.cur++;
  drawAgg();
  say(`Saved: item ${at.point(it.item_start)} ${verdict === "phi" ? "is PHI" : "is not PHI"}.`);
}

const aggKeys = {
  j: () => { state.agg.cur = Math.min(state.agg.cur + 1, (state.agg.data?.items.length || 1) - 1); drawAgg(); },
  k: () => { state.agg.cur = Math.max(state.agg.cur - 1, 0); drawAgg(); },
  Enter: () => { const it = state.agg.data?.items[state.agg.cur]; return it ? decide(itemExtent(it).phi ? "phi" : "not_phi") : null; },
  y: () => decide("phi"), x: () => decide("not_phi"),
  Delete: () => aggKeys.x(),
  t: async () => {
    const it = state.agg.data?.items[state.agg.cur];
    if (!it) return;
    const type = await chooseType(itemExtent(it).subtype);
    if (type) await decide("phi", { subtype: type });
  },
  "[": () => aggResize("growLeft"), "]": () => aggResize("growRight"),
  "{": () => aggResize("shrinkLeft"), "}": () => aggResize("shrinkRight"),
  D: () => finishAgg(),
  S: () => toggleScores(),
  n: () => stepNote("agg", 1), p: () => stepNote("agg", -1),
};

function aggResize(how) {
  const it = state.agg.data?.items[state.agg.cur];
  if (!it) return;
  const ext = itemExtent(it);
  const [s, e] = grown(state.agg.data.text, ext.start, ext.end, how);
  return decide("phi", { start: s, end: e });
}

async function finishAgg() {
  const d = state.agg.data;
  if (!d) return;
  const r = await guarded(() => api("POST", `/api/aggregate/${d.note_id}/done`, { voters: d.voters, version: d.version }));
  if (!r) return;
  say(`Note ${d.doc_id} adjudicated (${r.items} items).`);
  await loadAggNotes();
  await openAgg(d.note_id);
}

async function toggleScores() {
  const box = $("scores");
  if (!box.hidden) { box.hidden = true; return; }
  const s = await guarded(() => api("GET", "/api/scores"));
  if (!s) return;
  box.textContent = "";
  const h = document.createElement("h3");
  h.textContent = `Against the consensus of ${s.notes} adjudicated notes (Douglass 2005, table 4.1)`;
  box.appendChild(h);
  const img = document.createElement("img");
  img.src = `/api/scores.png?t=${Date.now()}`;
  img.alt = "sensitivity against PPV";
  box.appendChild(img);
  const t = document.createElement("table");
  t.className = "items";
  t.id = "scores-table";
  const row = (cells, th) => { const r = t.insertRow(); for (const c of cells) { const x = document.createElement(th ? "th" : "td"); x.textContent = c; r.appendChild(x); } };
  const f = (v) => (v === null || v === undefined ? "-" : v.toFixed(3));
  row(["", "", "Min", "Max", "Mean"], true);
  for (const k of Object.keys(s.teams).sort()) {
    const g = s.teams[k], who = k === "1" ? "1 person" : `${k} people`;
    row([who, "Sensitivity", f(g.min.sensitivity), f(g.max.sensitivity), f(g.mean.sensitivity)]);
    row([who, "PPV", f(g.min.ppv), f(g.max.ppv), f(g.mean.ppv)]);
  }
  row(["Annotator", "Notes", "Sensitivity", "PPV", "Found / missed / false"], true);
  for (const [name, r] of Object.entries(s.annotators)) row([`${name} (${r.kind})`, r.notes, f(r.sensitivity), f(r.ppv), `${r.found} / ${r.missed} / ${r.false_positives}`]);
  box.appendChild(t);
  box.hidden = false;
}

// ---------------------------------------------------------------- surrogate review
async function loadSurNotes() {
  const r = await guarded(() => api("GET", "/api/reviewed"));
  if (!r) return;
  state.sur.notes = r.notes;
  state.sur.conflicts = r.conflicts.length;
  fillSelect($("sur-note"), r.notes, (n) => `${n.doc_id} (${n.source}, ${n.spans} spans)`);
  const waiting = r.conflicts.length ? ` ${r.conflicts.length} note(s) in conflict wait for adjudication: ${r.conflicts.map((c) => c.doc_id).join(", ")}.` : "";
  $("sur-state").textContent = waiting;
  if (r.notes.length && !state.sur.note) await openSur(r.notes[0].id);
  else if (!r.notes.length) say("No reviewed note yet: surrogates are suggested for reviewed notes." + waiting);
}

async function openSur(id) {
  const d = await guarded(() => api("GET", `/api/surrogates/${id}`));
  if (!d) return;
  d.at = offsetMap(d.text);
  d.items.forEach((it) => unitsOfSpan(d.at, it));
  if (state.sur.note !== id) { state.sur.cur = 0; delete state.pages["sur-text"]; delete state.texts["sur-text"]; }
  state.sur.note = id;
  state.sur.data = d;
  $("sur-note").value = String(id);
  drawSur();
}

function drawSur() {
  const d = state.sur.data;
  if (!d) return;
  const pending = d.items.filter((it) => it.status !== "approved").length;
  const waiting = state.sur.conflicts ? ` (${state.sur.conflicts} note(s) in conflict wait for adjudication)` : "";
  $("sur-state").textContent = `${pending} of ${d.items.length} surrogates to approve${waiting}`;
  const t = $("sur-table");
  t.textContent = "";
  const head = t.insertRow();
  for (const h of ["Location", "Approved", "New text", "Original text", "Category"]) {
    const th = document.createElement("th"); th.textContent = h; head.appendChild(th);
  }
  d.items.forEach((it, i) => {
    const row = t.insertRow();
    row.className = (i === state.sur.cur ? "cur " : "") + (it.repeat ? "repeat" : "");
    row.onclick = () => surSelect(i);  // no redraw: a click in its "New text" box keeps the focus there
    row.insertCell().textContent = `${d.doc_id}, ${d.at.point(it.start)}`;
    const a = row.insertCell();
    a.textContent = it.status === "approved" ? "\u2714" : "-";
    a.className = it.status === "approved" ? "approved" : "pending";
    const c = row.insertCell();
    const input = document.createElement("input");
    input.className = "surrogate";
    input.value = it.value;
    input.dataset.index = String(i);
    input.onkeydown = (ev) => {
      ev.stopPropagation();
      if (ev.key === "Enter") { ev.preventDefault(); enqueue(() => saveSurrogate(i, input.value)); }
      if (ev.key === "Escape") { ev.preventDefault(); input.value = it.value; $("sur-text").focus(); }
    };
    c.appendChild(input);
    row.insertCell().textContent = it.original;
    row.insertCell().textContent = it.subtype;
  });
  t.rows[state.sur.cur + 1]?.scrollIntoView({ block: "nearest" });
  const marks = () => d.items.map((it, i) => ({ start: it.start, end: it.end, key: i,
    cls: `c-${state.parentOf[it.subtype] || "OTHER"} ${it.status === "approved" ? "accepted" : "suggested"}` + (i === state.sur.cur ? " cur" : ""),
    title: `-> ${it.value}` }));
  drawItemText("sur-text", d, marks, state.sur.cur);
}

// Move the current surrogate item without drawing the table again (a focused box stays focused).
function surSelect(i) {
  const d = state.sur.data;
  if (!d || i < 0 || i >= d.items.length) return;
  const t = $("sur-table"), el = $("sur-text"), old = state.sur.cur;
  state.sur.cur = i;
  t.rows[old + 1]?.classList.remove("cur");
  t.rows[i + 1]?.classList.add("cur");
  el.querySelector(`mark[data-key="${old}"]`)?.classList.remove("cur");
  t.rows[i + 1]?.scrollIntoView({ block: "nearest" });
  reveal(el, d.items[i].start, `mark[data-key="${i}"]`);  // a part drawn again marks the new item itself
  el.querySelector(`mark[data-key="${i}"]`)?.classList.add("cur");
}

// What the "New text" box of item i holds now (typed, maybe not saved yet).
function typedSurrogate(i) {
  const inp = document.querySelector(`#sur-table input[data-index="${i}"]`);
  return inp ? inp.value : state.sur.data.items[i].value;
}

async function saveSurrogate(i, value) {
  const d = state.sur.data, it = d.items[i];
  const r = await guarded(() => api("PUT", `/api/surrogates/${d.id}`,
                                   { start: d.at.point(it.start), end: d.at.point(it.end), value, approve: true }));
  if (!r) return;
  d.items[i] = unitsOfSpan(d.at, r);
  if (state.sur.cur < d.items.length - 1) state.sur.cur++;
  drawSur();
  $("sur-text").focus();
  say(`Saved: surrogate at ${d.at.point(it.start)} approved.`);
}

const surKeys = {
  j: () => surSelect(Math.min(state.sur.cur + 1, (state.sur.data?.items.length || 1) - 1)),
  k: () => surSelect(Math.max(state.sur.cur - 1, 0)),
  a: () => { const it = state.sur.data?.items[state.sur.cur]; return it ? saveSurrogate(state.sur.cur, typedSurrogate(state.sur.cur)) : null; },
  e: () => { const inp = document.querySelector(`#sur-table input[data-index="${state.sur.cur}"]`); if (inp) { inp.focus(); inp.select(); } },
  Enter: () => surKeys.e(),
  A: async () => {
    const d = state.sur.data;
    if (!d) return;
    const r = await guarded(() => api("POST", `/api/surrogates/${d.id}/approve-all`, {}));
    if (r) { say(`Saved: ${r.approved} surrogates approved.`); await openSur(d.id); }
  },
  n: () => stepNote("sur", 1), p: () => stepNote("sur", -1),
};

async function stepNote(which, step) {
  const s = state[which];
  const i = s.notes.findIndex((n) => n.id === s.note);
  const next = s.notes[i + step];
  if (!next) return say(step > 0 ? "Last note." : "First note.");
  if (which === "agg") await openAgg(next.id); else await openSur(next.id);
}

// ---------------------------------------------------------------- progress
async function drawProgress() {
  const p = await guarded(() => api("GET", "/api/progress"));
  if (!p) return;
  const box = $("progress-body");
  box.textContent = "";
  const add = (tag, text, cls) => { const e = document.createElement(tag); e.textContent = text; if (cls) e.className = cls; box.appendChild(e); return e; };
  add("div", `${p.reviewed} of ${p.notes} notes reviewed, ${p.adjudicated} adjudicated`, "big");
  if (p.conflicts && p.conflicts.length) {
    add("p", `${p.conflicts.length} note(s) in conflict (the reviewers disagree; not final until adjudicated in mode 2): ` +
        p.conflicts.map((c) => c.doc_id).join(", "), "conflict");
  }
  const er = p.estimated_recall;
  const f = (v) => (v === null || v === undefined ? "not known yet" : v.toFixed(3));
  add("p", `Estimated recall of the suggestions (reviewed notes, what reviewers kept): ${f(er.recall)} on ${er.notes} notes` +
      (er.latest ? `; model v${er.latest.version}: ${f(er.latest.recall)} on ${er.latest.notes} notes` : ""));
  const tr = p.training;
  add("p", `Model v${tr.model_version}, trained on ${tr.trained_on} reviewed notes; ` +
      (tr.frozen ? "frozen." : tr.running ? "retraining now (in the background)." : `retrains every ${tr.every || "-"} newly reviewed notes.`) +
      (tr.last_job ? ` Last job: ${tr.last_job.state}.` : ""));
  add("p", "By annotator: " + (Object.entries(p.by_annotator).map(([k, v]) => `${k} ${v}`).join(", ") || "none yet"));
  if (tr.frozen) {  // an audit's project: the audited model, never retrained
    add("p", "This project is frozen to the audited model: it never retrains.", "frozen");
    return;
  }
  const b = add("button", "Retrain now");
  b.type = "button";
  b.onclick = async () => { const r = await guarded(() => api("POST", "/api/retrain", {})); if (r) { say(r.started ? "Retraining started." : "Not started (running already, or nothing reviewed)."); drawProgress(); } };
}

// ---------------------------------------------------------------- help and modes
const HELP = [
  ["Review", [["j / k", "next / previous span"], ["a", "accept span"], ["x or Delete", "delete span"], ["t", "change type"],
    ["[ / ]", "grow span left / right by a word"], ["{ / }", "shrink span from the left / right"], ["s", "add the selected text as a span"],
    ["c", "caret mode: select words with the keyboard"],
    ["u", "undo the last deletion"], ["A", "accept all suggestions"], ["Space / Shift+Space", "next / previous page"], ["n", "note done, next note (after the last page)"], ["p", "previous note"]]],
  ["Caret (review, after c)", [["\u2190 / \u2192", "previous / next word"], ["\u2191 / \u2193", "word on the line above / below"],
    ["Home / End", "first / last word of the line"], ["Shift + \u2190\u2192\u2191\u2193 Home End", "extend the selection"],
    ["s", "add the selection as a span (type menu)"], ["Space / Shift+Space", "next / previous page, caret to its first word"],
    ["c or Esc", "leave caret mode (the other review keys work in it)"]]],
  ["Aggregate", [["j / k", "next / previous item"], ["Enter", "confirm the suggestion"], ["y / x", "PHI / not PHI"], ["t, [ ] { }", "type and extent (saved as PHI)"],
    ["D", "finish the note"], ["S", "annotator scores"], ["n / p", "next / previous note"]]],
  ["Surrogates", [["j / k", "next / previous item"], ["e or Enter", "edit (Enter saves and approves, Esc cancels)"], ["a", "approve"], ["A", "approve all"], ["n / p", "next / previous note"]]],
  ["Everywhere", [["1 2 3 4", "review, aggregate, surrogates, progress"], ["?", "this help"], ["Esc", "close"],
    ["click a span", "select it (its item in aggregate and surrogate modes)"], ["buttons", "every key has one"]]],
];

function drawHelp() {
  const box = $("help");
  box.textContent = "";
  for (const [title, rows] of HELP) {
    const part = document.createElement("div");
    const h = document.createElement("h3"); h.textContent = title; part.appendChild(h);
    const t = document.createElement("table");
    for (const [k, v] of rows) { const r = t.insertRow(); const kc = r.insertCell(); const kb = document.createElement("kbd"); kb.textContent = k; kc.appendChild(kb); r.insertCell().textContent = v; }
    part.appendChild(t);
    box.appendChild(part);
  }
}

const MODES = ["review", "aggregate", "surrogates", "progress"];

async function setMode(mode) {
  const refused = mode === "aggregate" && state.role === "annotator";
  if (refused) mode = "review";  // an annotator's page stays in review mode
  if (mode !== "review" && state.mode === "review") await releaseUntouched();
  state.mode = mode;
  localStorage.setItem("crfdeid-review-mode", mode);
  if (location.hash !== `#${mode}`) history.replaceState(null, "", `#${mode}`);
  for (const s of document.querySelectorAll(".mode")) s.classList.toggle("on", s.id === `mode-${mode}`);
  for (const b of document.querySelectorAll("#modes button")) b.classList.toggle("on", b.dataset.mode === mode);
  $("pageinfo").textContent = "";
  if (mode !== "review" && state.caret) { state.caret = null; drawCaret(); }
  if (mode === "review") { if (!state.review.note) await nextInQueue(); else drawReview(); }
  if (mode === "aggregate") { await loadAggNotes(); if (state.agg.data) drawAgg(); }
  if (mode === "surrogates") { await loadSurNotes(); if (state.sur.data) drawSur(); }
  if (mode === "progress") await drawProgress();
  activeText()?.focus();
  if (refused) say("Aggregate mode is for adjudicators.", true);
}

function pageKey(ev) {
  const el = activeText();
  if (!el || !state.pages[el.id]) return false;
  const p = state.pages[el.id];
  if ((ev.key === " " && !ev.shiftKey) || ev.key === "PageDown") { showPage(el, p.page + 1); return true; }
  if ((ev.key === " " && ev.shiftKey) || ev.key === "PageUp") { showPage(el, p.page - 1); return true; }
  return false;
}

// A button's action: the same as its key (one code path for keyboard and mouse).
function pressKey(key, shift) {
  if (state.menu) return;
  if (!state.who) { say("Enter your annotator name first.", true); $("who").focus(); return; }
  const el = activeText();
  if (key === "PageDown" || key === "PageUp") {
    if (el && state.pages[el.id]) showPage(el, state.pages[el.id].page + (key === "PageDown" ? 1 : -1));
    if (state.mode === "review" && state.caret) enqueue(caretToPage);
    return;
  }
  if (state.mode === "review" && state.caret && CARET_KEYS[key]) { enqueue(() => caretMove(CARET_KEYS[key], shift)); return; }
  const keys = { review: reviewKeys, aggregate: aggKeys, surrogates: surKeys }[state.mode];
  const fn = keys && keys[key];
  if (fn) enqueue(fn);
}

// A click on a highlighted span selects it (review) or its item (aggregate, surrogates).
function clickMark(id, ev) {
  const mark = ev.target.closest("mark");
  if (!mark || window.getSelection()?.toString()) return;  // a drag selects text for "add"
  if (id === "review-text") {
    const i = visibleSpans().findIndex((sp) => String(sp.id) === mark.dataset.id);
    if (i >= 0) enqueue(() => setCur(i));
  } else if (mark.dataset.key !== undefined) {
    const which = id === "agg-text" ? "agg" : "sur";
    if (which === "sur") { enqueue(() => surSelect(Number(mark.dataset.key))); return; }
    state[which].cur = Number(mark.dataset.key);
    enqueue(() => drawAgg());
  }
}

function onKey(ev) {
  if (state.menu) return;
  const tag = ev.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "Escape") {
    $("help").hidden = true;
    $("scores").hidden = true;
    if (state.caret) enqueue(caretLeave);
    return;
  }
  if (ev.key === "?") { drawHelp(); $("help").hidden = !$("help").hidden; ev.preventDefault(); return; }
  if (["1", "2", "3", "4"].includes(ev.key)) { ev.preventDefault(); enqueue(() => setMode(["review", "aggregate", "surrogates", "progress"][Number(ev.key) - 1])); return; }
  if (!state.who) { say("Enter your annotator name first.", true); $("who").focus(); return; }
  if (state.mode === "review" && state.caret && CARET_KEYS[ev.key]) {
    ev.preventDefault();
    const how = CARET_KEYS[ev.key], extend = ev.shiftKey;
    enqueue(() => caretMove(how, extend));
    return;
  }
  if (pageKey(ev)) { ev.preventDefault(); if (state.mode === "review" && state.caret) enqueue(caretToPage); return; }
  const keys = { review: reviewKeys, aggregate: aggKeys, surrogates: surKeys }[state.mode];
  const fn = keys && keys[ev.key];
  if (fn) { ev.preventDefault(); enqueue(fn); }
}

async function start() {
  const info = await guarded(() => api("GET", "/api/project"));
  if (!info) return;
  state.categories = info.categories;
  for (const [cat, subs] of Object.entries(info.categories)) for (const s of subs) { state.subtypes.push(s); state.parentOf[s] = cat; }
  $("title").textContent = `crfdeid review: ${info.name}`;
  const legend = $("legend");
  for (const cat of Object.keys(info.categories)) {
    const s = document.createElement("span"); s.className = `legend-item c-${cat}`; s.textContent = cat; legend.appendChild(s);
  }
  const states = document.createElement("div");
  states.id = "legend-states";
  for (const [cls, label, title] of [["suggested", "pending", "a model's suggestion, not decided yet"],
                                     ["suggested low", "unsure (< 0.5)", "a suggestion the model is unsure of"],
                                     ["accepted", "accepted", "accepted, changed or added"], ["accepted cur", "selected", ""]]) {
    const row = document.createElement("span"), m = document.createElement("mark");
    m.className = `c-OTHER ${cls}`;
    m.textContent = "Ab";
    if (cls.includes("low")) m.dataset.conf = "0.12";
    row.title = title;
    row.append(m, ` ${label}`);
    states.appendChild(row);
  }
  legend.prepend(states);
  state.role = info.role;
  if (info.role === "annotator") {  // aggregate mode is for adjudicators: the server refuses it anyway
    const b = document.querySelector('#modes button[data-mode="aggregate"]');
    b.disabled = true;
    b.title = "Aggregate mode is for adjudicators";
  }
  const who = $("who");
  who.value = info.you || localStorage.getItem("crfdeid-review-who") || "";
  state.who = who.value.trim();
  if (info.you) {  // a personal token: the server knows who this is
    who.value = info.you;
    who.readOnly = true;
    who.title = "signed in with your own token";
  }
  who.onchange = async () => {
    if (info.you) return;
    await releaseUntouched();
    state.who = who.value.trim();
    localStorage.setItem("crfdeid-review-who", state.who);
    state.review = { note: null, cur: -1, history: [], lastType: "DOCTOR" };
    state.caret = null;
    drawCaret();
    if (state.who) enqueue(() => setMode(state.mode));
  };
  who.onkeydown = (ev) => { if (ev.key === "Enter") { ev.preventDefault(); who.blur(); who.onchange(); } };
  for (const b of document.querySelectorAll("#modes button")) b.onclick = () => enqueue(() => setMode(b.dataset.mode));
  for (const b of document.querySelectorAll("#side button")) {
    const key = { accept: "a", delete: "x", type: "t", add: "s", caret: "c", acceptall: "A", done: "n" }[b.dataset.act];
    b.onmousedown = (ev) => ev.preventDefault(); // keep the text selection for "add"
    b.onclick = () => enqueue(reviewKeys[key]);
  }
  $("helpbtn").onclick = () => { drawHelp(); $("help").hidden = !$("help").hidden; };
  // choosing a note hands the keys back to the page (a focused select would swallow them)
  $("agg-note").onchange = () => { $("agg-note").blur(); enqueue(() => openAgg(Number($("agg-note").value))).then(() => activeText()?.focus()); };
  $("sur-note").onchange = () => { $("sur-note").blur(); enqueue(() => openSur(Number($("sur-note").value))).then(() => activeText()?.focus()); };
  for (const b of document.querySelectorAll("button[data-key]")) {
    b.onmousedown = (ev) => ev.preventDefault();  // keep the focus (and a text selection) where it is
    b.onclick = () => pressKey(b.dataset.key, b.dataset.shift === "1");
  }
  for (const id of ["review-text", "agg-text", "sur-text"]) $(id).addEventListener("click", (ev) => clickMark(id, ev));
  $("agg-finish").onclick = () => enqueue(finishAgg);
  $("agg-scores").onclick = () => enqueue(toggleScores);
  $("sur-approve-all").onclick = () => enqueue(surKeys.A);
  document.addEventListener("keydown", onKey);
  window.addEventListener("resize", () => {
    const el = activeText();
    if (el && state.pages[el.id]) layoutPages(el);
    if (state.caret) state.caret.lines = null;
  });
  if (!state.who) { say("Enter your annotator name (top bar), then press Enter."); who.focus(); return; }
  const asked = location.hash.slice(1);
  await setMode(MODES.includes(asked) ? asked : localStorage.getItem("crfdeid-review-mode") || "review");
}

document.addEventListener("DOMContentLoaded", start);
