// absinthe trace viewer: replays a recorded run of an analysis on its control-flow graph.
// The data is the JSON in #trace-data, written by `absinthe trace --format html`; its event
// encoding is documented in cli/src/trace/record.rs, and for states shown as rows (the heap
// analyses: `data.rows`, the names being the rows' labels) in cli/src/trace/rows.rs, and the
// relation of a relational analysis (`data.relation`) in cli/src/trace/relation.rs. No
// library, no network.
"use strict";
(function () {
  // Where loading goes, for the big-input measurement: milliseconds since navigation started.
  const timings = { script: performance.now() };
  const data = JSON.parse(document.getElementById("trace-data").textContent);
  timings.parsed = performance.now();
  const S = data.strings;
  const names = data.names;
  const blocks = data.blocks;
  const events = data.events;
  const N = events.length;
  const REACH = names.length; // the key of reachability in a history
  const REL = names.length + 1; // the key of the relation (diff name -2) in a history
  const RELATIONS = data.relations || []; // each relation shown: a list of constraint strings
  const ROWS = data.rows === true; // states are rows (label → value), not a value per name
  const KINDS = ["visit", "join", "widen", "narrow", "transfer", "reduce"];

  // ---- Histories: for each block's entry and exit, each name's values over time. ----------
  // hist[b][key] = [time, value, time, value, …]; time t means "after event t-1".
  const entryHist = blocks.map(() => ({}));
  const exitHist = blocks.map(() => ({}));
  const transfers = blocks.map(() => []); // event indexes of each block's transfers
  const entryChanges = blocks.map(() => []); // event indexes that set each block's entry
  function record(hist, time, diff) {
    for (let i = 0; i < diff.length; i += 2) {
      const key = diff[i] === -2 ? REL : diff[i] < 0 ? REACH : diff[i];
      (hist[key] || (hist[key] = [])).push(time, diff[i + 1]);
    }
  }
  for (let e = 0; e < N; e++) {
    const ev = events[e];
    switch (ev[0]) {
      case 1: record(entryHist[ev[1]], e + 1, ev[3]); entryChanges[ev[1]].push(e); break;
      case 2: case 3: record(entryHist[ev[1]], e + 1, ev[2]); entryChanges[ev[1]].push(e); break;
      case 4: record(exitHist[ev[1]], e + 1, ev[3]); transfers[ev[1]].push(e); break;
    }
  }
  // The last value in `pairs` set at or before time `t`, or undefined.
  function at(pairs, t) {
    if (!pairs) return undefined;
    let lo = 0, hi = pairs.length / 2 - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[2 * mid] <= t) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return found < 0 ? undefined : pairs[2 * found + 1];
  }
  // The position of the last element of the sorted `list` below `limit`, or -1.
  function lastBelowAt(list, limit) {
    let lo = 0, hi = list.length - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid] < limit) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }
  // The last element of the sorted `list` below `limit`, or -1.
  function lastBelow(list, limit) {
    const i = lastBelowAt(list, limit);
    return i < 0 ? -1 : list[i];
  }
  timings.indexed = performance.now();
  const backEdges = new Set(data.back_edges.map(([a, b]) => a + ">" + b));
  const heads = new Set(data.back_edges.map(([, b]) => b));

  // ---- States at a moment. A point is -1 (entry), a statement index (after it), or "exit". ---
  // Returns null when unreachable, else an array of value strings (undefined: bottom).
  function slotState(hist, t) {
    if (at(hist[REACH], t) !== 1) return null;
    return names.map((_, n) => { const v = at(hist[n], t); return v === undefined ? undefined : S[v]; });
  }
  // A backward analysis's engine joins into a block's end and transfers to its start, its steps
  // going from the terminator up: step `s` is the state before statement `s`.
  const BACKWARD = data.direction === "backward";
  function state(b, point, t) {
    if (point === -1) return slotState((BACKWARD ? exitHist : entryHist)[b], t);
    if (point === "exit") return slotState((BACKWARD ? entryHist : exitHist)[b], t);
    const tr = lastBelow(transfers[b], t);
    if (tr < 0) return null;
    let st = slotState(entryHist[b], tr);
    if (st === null) return null;
    if (ROWS) {
      // Each statement's diff against the state before it; value -1: the row is gone.
      for (const [s, diff] of events[tr][2]) {
        if (BACKWARD ? s <= point : s > point) break;
        for (let i = 0; i < diff.length; i += 2) {
          if (diff[i] < 0) { if (diff[i + 1] === 0) return null; continue; }
          st[diff[i]] = diff[i + 1] < 0 ? undefined : S[diff[i + 1]];
        }
      }
      return st;
    }
    for (const [s, v] of events[tr][2]) if (s <= point) st[blocks[b].stmts[s].def] = S[v];
    return st;
  }

  // ---- The relation at a moment (a relational analysis's): its constraints' strings, or null.
  function relationIn(hist, t) {
    const r = at(hist[REL], t);
    return r === undefined ? null : RELATIONS[r].map((c) => S[c]);
  }
  function relation(b, point, t) {
    if (!data.relation || state(b, point, t) === null) return null;
    if (point === -1) return relationIn(entryHist[b], t);
    if (point === "exit") return relationIn(exitHist[b], t);
    const tr = lastBelow(transfers[b], t);
    let rel = relationIn(entryHist[b], tr);
    for (const [s, , r] of events[tr][2]) if (s <= point && r !== undefined) rel = RELATIONS[r].map((c) => S[c]);
    return rel;
  }
  // A constraint's text as [left side, "≤" or "≥", bound]; bounds may pass 2^53, so BigInt.
  function parse(text) {
    const m = /^(.*) (≤|≥) (-?\d+)$/.exec(text);
    return m ? [m[1], m[2], BigInt(m[3])] : [text, "", 0n];
  }
  // Whether the constraint `a` gives `b` (the same form, bound at least as tight).
  function gives(a, b) {
    const [la, oa, ca] = parse(a), [lb, ob, cb] = parse(b);
    return la === lb && oa === ob && (oa === "≤" ? ca <= cb : ca >= cb);
  }
  const LIMIT = 1n << 63n;
  // The relations shown beside the values: those of two names within the 64-bit range (each
  // name's bounds are in its value), as `analyze` prints them.
  function shown(rel) {
    return (rel || []).filter((c) => { const [lhs, , k] = parse(c); return lhs.includes(" ") && k < LIMIT && -k <= LIMIT; });
  }
  function relationText(rel) { return shown(rel).join(", "); }

  // ---- Describing events. -------------------------------------------------------------------
  const label = (b) => blocks[b].label;
  function diffText(diff) {
    const parts = [];
    for (let i = 0; i < diff.length; i += 2) {
      if (diff[i] === -2) parts.push("relation " + (relationText(RELATIONS[diff[i + 1]].map((c) => S[c])) || "⊤"));
      else if (diff[i] < 0) parts.push(diff[i + 1] ? "reachable" : "unreachable");
      else if (diff[i + 1] < 0) parts.push(names[diff[i]] + " gone");
      else parts.push(names[diff[i]] + " = " + S[diff[i + 1]]);
    }
    return parts.length ? parts.join(", ") : "no change";
  }
  function describe(e) {
    const ev = events[e];
    const b = label(ev[1]);
    switch (ev[0]) {
      case 0: return "visit " + b;
      case 1: return "join into " + b + (ev[2] ? ": " + diffText(ev[3]) : ": no change");
      case 2: return "widen at " + b + ": " + diffText(ev[2]);
      case 3: return "narrow at " + b + ": " + diffText(ev[2]);
      case 4: return "transfer " + b + ": exit " + diffText(ev[3]);
      case 5: {
        const where = ev[2] >= 0 ? "statement " + (ev[2] + 1) + " of " + b
          : "edge " + label(-1 - ev[2]) + " → " + b;
        return "reduce " + S[ev[3]] + " on " + S[ev[4]] + ": " + S[ev[5]] + " → " + S[ev[6]] +
          " (" + where + ")";
      }
    }
    return "";
  }

  // ---- Why: the events and rules that produced a name's value at a point, back to the inputs.
  // A node: {kind, text, source, step, children, more}; `more` computes children on demand.
  const BUDGET = 150;
  function splitSource(rule) {
    const m = /^(.*) at (\S+:\d+(?::\d+)?)$/.exec(rule);
    return m ? [m[1], m[2]] : [rule, null];
  }
  function ruleNodes(ruleIdxs) {
    return ruleIdxs.map((r) => { const [text, source] = splitSource(S[r]); return { kind: "rule", text, source, children: [] }; });
  }
  function reductionsBefore(e, b, atKey) {
    const out = [];
    for (let i = e - 1; i >= 0 && events[i][0] === 5 && events[i][1] === b; i--) {
      const r = events[i];
      if (r[2] !== atKey) continue;
      const [text, source] = splitSource(S[r[3]]);
      out.unshift({ kind: "reduce", step: i, text: text + " refined " + S[r[4]] + ": " + S[r[5]] + " → " + S[r[6]], source, children: [] });
    }
    return out;
  }
  function valueText(v) { return v === undefined ? "⊥" : v; }
  // A derivation is a graph (a loop head's value feeds many later ones): each (name, point,
  // moment) is expanded once per question, and later occurrences point back to it.
  function why(x, b, point, t, budget) {
    if (ROWS) return { kind: "input", text: "why trees follow names through a value analysis's statements; a heap state's rows are shown step by step instead (each statement's changes are in the states above)", children: [] };
    const key = x + "/" + b + "/" + point + "/" + t;
    const earlier = budget.seen.get(key);
    if (earlier) return { kind: earlier.kind, text: earlier.text + " (as above)", children: [] };
    if (budget.left-- <= 0) return { kind: "more", text: names[x] + " at " + label(b) + " (step " + t + ")", more: () => why(x, b, point, t, fresh()), children: [] };
    const node = derive(x, b, point, t, budget);
    budget.seen.set(key, node);
    return node;
  }
  function fresh() { return { left: BUDGET, seen: new Map() }; }
  function derive(x, b, point, t, budget) {
    const blk = blocks[b];
    if (point !== -1) {
      const tr = lastBelow(transfers[b], t);
      if (tr < 0) return { kind: "input", text: label(b) + " has not run by step " + t + ": " + names[x] + " is ⊥", children: [] };
      const last = point === "exit" ? blk.stmts.length - 1 : point;
      for (let k = last; k >= 0; k--) {
        const st = blk.stmts[k];
        if (st.def !== x) continue;
        const computed = events[tr][2].find(([s]) => s === k);
        const value = computed ? S[computed[1]] : "⊥";
        const node = { kind: "transfer", step: tr, text: "step " + (tr + 1) + ": `" + blk.lines[blk.phis.length + k] + "` in " + label(b) + " gives " + names[x] + " = " + value, children: [] };
        node.children.push(...ruleNodes(st.rules), ...reductionsBefore(tr, b, k));
        if (computed) node.children.push(...boundNodes(x, computed[3], { b, k, step: tr, line: blk.lines[blk.phis.length + k] }, budget));
        for (const u of st.uses) if (typeof u === "number") node.children.push(why(u, b, k - 1, tr, budget));
        return node;
      }
      return why(x, b, -1, tr, budget);
    }
    const changes = entryChanges[b];
    // The last event at or before t that changed x (or reachability) at the entry.
    let e = -1;
    const hist = entryHist[b][x];
    for (let j = lastBelowAt(changes, t); j >= 0; j--) {
      const ev = events[changes[j]];
      const diff = ev[0] === 1 ? ev[3] : ev[2];
      let touches = false;
      for (let k = 0; k < diff.length; k += 2) if (diff[k] === x || diff[k] < 0) touches = true;
      if (touches) { e = changes[j]; break; }
    }
    if (e < 0) return { kind: "input", text: "nothing has flowed into " + label(b) + " by step " + t + ": " + names[x] + " is ⊥", children: [] };
    const ev = events[e];
    const value = valueText(at(hist, e + 1) === undefined ? undefined : S[at(hist, e + 1)]);
    const kind = KINDS[ev[0]];
    const verb = ev[0] === 1 ? "join into" : ev[0] === 2 ? "widening at" : "narrowing at";
    const node = { kind, step: e, text: "step " + (e + 1) + ": " + verb + " " + label(b) + " gives " + names[x] + " = " + value, children: [] };
    const ins = ev[0] === 1 ? ev[4] : ev[3];
    for (const [from, , diff] of ins) {
      if (from < 0) {
        node.children.push({ kind: "input", text: "the function's entry: " + names[x] + " = " + valueText(entryValue(diff, x)), children: [] });
        continue;
      }
      let changed = undefined, infeasible = false;
      for (let k = 0; k < diff.length; k += 2) {
        if (diff[k] === x) changed = S[diff[k + 1]];
        if (diff[k] < 0 && diff[k + 1] === 0) infeasible = true;
      }
      if (infeasible) { node.children.push({ kind: "edge", text: "edge " + label(from) + " → " + label(b) + " cannot be taken", children: [] }); continue; }
      if (changed === undefined) { node.children.push(why(x, from, "exit", e, budget)); continue; }
      const phi = blk.phis.find((p) => p.def === x);
      const src = phi && phi.from.find(([p]) => p === from);
      if (src) {
        const edge = { kind: "edge", step: e, text: "φ on edge " + label(from) + " → " + label(b) + ": " + names[x] + " = " + (typeof src[1] === "number" ? names[src[1]] : src[1]) + " = " + changed, children: reductionsBefore(e, b, -1 - from) };
        if (typeof src[1] === "number") edge.children.push(why(src[1], from, "exit", e, budget));
        node.children.push(edge);
      } else {
        const term = blocks[from].lines[blocks[from].lines.length - 1];
        const edge = { kind: "edge", step: e, text: "edge " + label(from) + " → " + label(b) + " refined by `" + term + "`: " + names[x] + " = " + changed, children: [] };
        if (blocks[from].cond) edge.children.push(...ruleNodes(blocks[from].cond.rules));
        edge.children.push(...reductionsBefore(e, b, -1 - from));
        edge.children.push(...boundNodes(x, ins.find(([f]) => f === from)[3], { b, from, step: e, line: term }, budget));
        edge.children.push(why(x, from, "exit", e, budget));
        node.children.push(edge);
      }
    }
    if (ev[0] !== 1 || heads.has(b)) {
      const before = at(hist, e);
      if (before !== undefined) node.children.push(prev(why(x, b, -1, e, budget)));
    }
    return node;
  }
  // ---- Why a constraint of the relation holds: the step that made it new, the sums of the
  // closure that derived it (each from a constraint held before, one the step made, or the
  // 64-bit range), and for one held before, why it held there. `whys` are a step's
  // [constraint, derivation] (cli/src/trace/relation.rs); a place is a statement {b, k} or an
  // edge {b, from}, with its step and its line.
  function boundNodes(x, whys, place, budget) {
    if (!whys) return [];
    const out = [];
    for (const [c, tree] of whys) {
      const [lhs, op] = parse(S[c]);
      // A bound the step gave the relation itself is the value's own: nothing to add.
      if (lhs !== names[x] || op === "" || (tree && tree[1] === 1)) continue;
      out.push({ kind: "relation", step: place.step, text: "the relation bounds " + names[x] + ": " + S[c], children: [derivation(tree, S[c], place, budget)] });
    }
    return out;
  }
  function derivation(tree, text, place, budget) {
    if (tree === null) return { kind: "input", text: text + ": not derived from what held before, what the step made and the 64-bit range", children: [] };
    const c = S[tree[0]];
    const here = place.from === undefined ? "`" + place.line + "`" : "the edge " + label(place.from) + " → " + label(place.b);
    switch (tree[1]) {
      case 0: {
        const earlier = place.from === undefined ? whyConstraint(c, place.b, place.k - 1, place.step, budget)
          : whyConstraint(c, place.from, "exit", place.step, budget);
        return { kind: "relation", text: c + ": held before " + here, children: [earlier] };
      }
      case 1: return { kind: "relation", text: c + ": made by " + here + (place.from === undefined ? " (the assignment, or the bounds of the value it computed)" : " (its guard, its φs, or the bounds they gave the values)"), children: [] };
      case 2: return { kind: "input", text: c + ": the range of 64-bit values", children: [] };
      case 4: {
        const old = S[tree[2]];
        return { kind: "relation", text: c + ": " + old + " held before " + here + ", which moves it", children: [whyConstraint(old, place.b, place.k - 1, place.step, budget)] };
      }
      case 3: return { kind: "closure", text: c + ": the sum of " + S[tree[2][0]] + " and " + S[tree[3][0]], children: [derivation(tree[2], text, place, budget), derivation(tree[3], text, place, budget)] };
    }
    return { kind: "input", text: c, children: [] };
  }
  function whyConstraint(text, b, point, t, budget) {
    const key = "rel/" + text + "/" + b + "/" + point + "/" + t;
    const earlier = budget.seen.get(key);
    if (earlier) return { kind: earlier.kind, text: earlier.text + " (as above)", children: [] };
    if (budget.left-- <= 0) return { kind: "more", text: text + " at " + label(b) + " (step " + t + ")", more: () => whyConstraint(text, b, point, t, fresh()), children: [] };
    const node = deriveConstraint(text, b, point, t, budget);
    budget.seen.set(key, node);
    return node;
  }
  function deriveConstraint(text, b, point, t, budget) {
    const blk = blocks[b];
    if (point !== -1) {
      const tr = lastBelow(transfers[b], t);
      if (tr < 0) return { kind: "input", text: label(b) + " has not run by step " + t, children: [] };
      const last = point === "exit" ? blk.stmts.length - 1 : point;
      for (let k = last; k >= 0; k--) {
        const computed = events[tr][2].find(([s]) => s === k);
        const made = computed && computed[3] && computed[3].find(([c]) => gives(S[c], text));
        if (!made) continue;
        const line = blk.lines[blk.phis.length + k];
        return { kind: "transfer", step: tr, text: "step " + (tr + 1) + ": `" + line + "` in " + label(b) + " gives " + S[made[0]], children: [derivation(made[1], S[made[0]], { b, k, step: tr, line }, budget)] };
      }
      return whyConstraint(text, b, -1, tr, budget);
    }
    // The last event at or before t that changed the relation (or reachability) at the entry.
    let e = -1;
    for (let j = lastBelowAt(entryChanges[b], t); j >= 0; j--) {
      const ev = events[entryChanges[b][j]];
      const diff = ev[0] === 1 ? ev[3] : ev[2];
      let touches = false;
      for (let k = 0; k < diff.length; k += 2) if (diff[k] < 0) touches = true;
      if (touches) { e = entryChanges[b][j]; break; }
    }
    if (e < 0) return { kind: "input", text: "nothing has flowed into " + label(b) + " by step " + t, children: [] };
    const ev = events[e];
    const now = relationIn(entryHist[b], e + 1) || [];
    const held = now.find((c) => gives(c, text)) || text;
    const verb = ev[0] === 1 ? "join into" : ev[0] === 2 ? "widening at" : "narrowing at";
    const node = { kind: KINDS[ev[0]], step: e, text: "step " + (e + 1) + ": " + verb + " " + label(b) + " gives " + held, children: [] };
    for (const [from, , diff, whys] of ev[0] === 1 ? ev[4] : ev[3]) {
      if (from < 0) { node.children.push({ kind: "input", text: "the function's entry", children: [] }); continue; }
      let rel = null, infeasible = false;
      for (let k = 0; k < diff.length; k += 2) {
        if (diff[k] === -2) rel = RELATIONS[diff[k + 1]].map((c) => S[c]);
        if (diff[k] === -1 && diff[k + 1] === 0) infeasible = true;
      }
      if (infeasible) { node.children.push({ kind: "edge", text: "edge " + label(from) + " → " + label(b) + " cannot be taken", children: [] }); continue; }
      const term = blocks[from].lines[blocks[from].lines.length - 1];
      const made = whys && whys.find(([c]) => gives(S[c], text));
      if (made) {
        node.children.push({ kind: "edge", step: e, text: "edge " + label(from) + " → " + label(b) + " (`" + term + "`) gives " + S[made[0]], children: [derivation(made[1], S[made[0]], { b, from, step: e, line: term }, budget)] });
        continue;
      }
      const source = rel || relationIn(exitHist[from], e) || [];
      const giving = source.find((c) => gives(c, text));
      node.children.push(giving ? whyConstraint(giving, from, "exit", e, budget)
        : { kind: "edge", text: "edge " + label(from) + " → " + label(b) + ": " + text + " follows from the bounds there", children: [] });
    }
    if (ev[0] !== 1 || heads.has(b)) {
      const before = relationIn(entryHist[b], e);
      const giving = before && before.find((c) => gives(c, text));
      if (giving) node.children.push(prev(whyConstraint(giving, b, -1, e, budget)));
    }
    return node;
  }
  // The value a head had before a join, widening or narrowing changed it (a copy: the node
  // may be shared with another part of the tree).
  function prev(node) { return Object.assign({}, node, { text: "before: " + node.text }); }
  function entryValue(diff, x) {
    for (let k = 0; k < diff.length; k += 2) if (diff[k] === x) return S[diff[k + 1]];
    return undefined;
  }
  // The tree as lines, for tests and for copying: [{depth, kind, text, source}].
  function flatten(node, depth, out) {
    out.push({ depth, kind: node.kind, text: node.text, source: node.source || null });
    for (const c of node.children) flatten(c, depth + 1, out);
    return out;
  }

  // ---- The page. ----------------------------------------------------------------------------
  const el = (tag, attrs, ...kids) => {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, v);
    for (const k of kids) n.append(k);
    return n;
  };
  const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const how = data.result.stop;
  const stop = how.kind === "stable" ? "fixpoint reached"
    : how.kind === "budget" ? "stopped after " + how.visits + " visits (--max-visits): not a fixpoint"
    : "stopped: a lattice law failed at " + blocks[how.block].label;
  document.body.prepend(el("header", {},
    el("h1", {}, data.function + " — " + data.analysis),
    el("span", { class: "meta" }, blocks.length + " blocks, " + names.length + (ROWS ? " rows" : " names") + ", " + N + " events; " + stop),
    el("span", { class: "meta" }, "keys: ← → step, shift ×10, Home End, space play, + − zoom")));
  const main = el("div", { id: "main" });
  const graphPane = el("div", { id: "graph-pane" });
  const side = el("div", { id: "side" });
  main.append(graphPane, side);
  document.body.append(main);

  // The graph: boxes at the layout's places, edges between them.
  const PAD = 30, LINE = 16, CHAR = 7.3;
  let width = 0, height = 0;
  for (const b of blocks) { width = Math.max(width, b.x + b.w / 2); height = Math.max(height, b.y + b.h / 2); }
  width += 2 * PAD + 60; height += 2 * PAD;
  const wrong = data.verify && data.verify.violation;
  const pathEdges = new Map();
  if (wrong) wrong.path.forEach((b, i) => { if (i > 0) { const k = wrong.path[i - 1] + ">" + b; if (!pathEdges.has(k)) pathEdges.set(k, i); } });
  let svg = '<svg id="cfg" xmlns="http://www.w3.org/2000/svg" width="' + width + '" height="' + height + '" viewBox="0 0 ' + width + " " + height + '">';
  svg += '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#778"/></marker>' +
    '<marker id="arrow-back" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#c50"/></marker></defs>';
  const box = (b) => ({ left: b.x - b.w / 2 + PAD, right: b.x + b.w / 2 + PAD, top: b.y - b.h / 2 + PAD, bottom: b.y + b.h / 2 + PAD, cx: b.x + PAD });
  blocks.forEach((blk, i) => {
    const a = box(blk);
    blk.successors.forEach((s, k) => {
      const c = box(blocks[s]);
      const back = backEdges.has(i + ">" + s);
      const onPath = pathEdges.has(i + ">" + s);
      const spread = (k - (blk.successors.length - 1) / 2) * 16;
      let d;
      if (back || c.top <= a.bottom) {
        // Against the flow: out of the right side, round, into the target's right side.
        const x = Math.max(a.right, c.right) + 24 + 8 * k;
        d = "M" + a.right + "," + (a.bottom - 8) + " C" + x + "," + (a.bottom - 8) + " " + x + "," + (c.top + 8) + " " + c.right + "," + (c.top + 8);
      } else {
        const x0 = a.cx + spread, y0 = a.bottom, y1 = c.top, mid = (y0 + y1) / 2;
        d = "M" + x0 + "," + y0 + " C" + x0 + "," + mid + " " + c.cx + "," + mid + " " + c.cx + "," + y1;
      }
      svg += '<path class="edge' + (back ? " back" : "") + (onPath ? " on-path" : "") + '" data-from="' + i + '" data-to="' + s + '" d="' + d + '" marker-end="url(#' + (back ? "arrow-back" : "arrow") + ')"/>';
      if (onPath) svg += '<text class="path-step" x="' + ((a.cx + c.cx) / 2 + 6) + '" y="' + ((a.bottom + c.top) / 2) + '">' + pathEdges.get(i + ">" + s) + "</text>";
    });
  });
  // Blocks are drawn only near the visible part of the graph (a function of 10^4 blocks would
  // otherwise take seconds to paint), and each is drawn with its state at the moment shown.
  function blockSvg(i) {
    const blk = blocks[i], a = box(blk);
    const st = state(i, -1, t);
    const classes = "block" + (st === null ? " unreached" : "") + (i === current ? " current" : "") +
      (i === selected && i !== current ? " selected" : "") + (wrong && wrong.block === i ? " failing" : "");
    let out = '<g class="' + classes + '" data-block="' + i + '" transform="translate(' + a.left + "," + a.top + ')">';
    out += '<rect class="box" width="' + blk.w + '" height="' + blk.h + '" rx="4"/>';
    out += '<rect class="header" x="1" y="1" width="' + (blk.w - 2) + '" height="' + (LINE + 2) + '" rx="3"/>';
    out += '<text class="label" x="8" y="' + (LINE - 1) + '">' + esc(blk.label) + "</text>";
    blk.lines.forEach((line, k) => {
      // The statement whose rule is blamed, and the point where the run left the analysis.
      const culprit = wrong && wrong.culprit && wrong.culprit.block === i && k === blk.phis.length + wrong.culprit.index;
      const miss = wrong && wrong.block === i && k === blk.phis.length + wrong.index;
      if (culprit) out += '<rect class="wrong" x="2" y="' + (LINE * (k + 1) + 5) + '" width="' + (blk.w - 4) + '" height="' + LINE + '"/>';
      if (miss) out += '<rect class="miss" x="2" y="' + (LINE * (k + 1) + 5) + '" width="' + (blk.w - 4) + '" height="' + LINE + '"/>';
      out += '<text class="line' + (culprit ? " wrong" : "") + '" x="8" y="' + (LINE * (k + 2) + 1) + '">' + esc(line) + "</text>";
    });
    out += '<text class="state" x="8" y="' + (LINE * (blk.lines.length + 2) + 5) + '">' + esc(fit("in: " + summary(st) + relationSummary(i, t), blk)) + "</text>";
    return out + "</g>";
  }
  svg += '<g id="blocks"></g></svg>';
  graphPane.innerHTML = svg;
  const svgEl = graphPane.querySelector("svg");
  const layer = svgEl.querySelector("#blocks");
  const groups = new Array(blocks.length).fill(null); // the drawn blocks
  const MARGIN = 400;
  function visible(i, view) {
    if (blocks.length <= 400) return true;
    const a = box(blocks[i]);
    return a.right >= view.left && a.left <= view.right && a.bottom >= view.top && a.top <= view.bottom;
  }
  function drawVisible() {
    const view = {
      left: graphPane.scrollLeft / zoom - MARGIN, top: graphPane.scrollTop / zoom - MARGIN,
      right: (graphPane.scrollLeft + graphPane.clientWidth) / zoom + MARGIN,
      bottom: (graphPane.scrollTop + graphPane.clientHeight) / zoom + MARGIN,
    };
    let added = "";
    for (let i = 0; i < blocks.length; i++) {
      const show = visible(i, view);
      if (show && !groups[i]) added += blockSvg(i);
      else if (!show && groups[i]) { groups[i].remove(); groups[i] = null; }
    }
    if (added) {
      const holder = document.createElementNS("http://www.w3.org/2000/svg", "g");
      holder.innerHTML = added;
      for (const g of Array.from(holder.children)) { groups[Number(g.dataset.block)] = g; layer.append(g); }
    }
  }
  let drawPending = false;
  graphPane.addEventListener("scroll", () => {
    if (drawPending) return;
    drawPending = true;
    requestAnimationFrame(() => { drawPending = false; drawVisible(); });
  });

  // The side panel.
  const controls = el("section", {}, el("h2", {}, "Run"));
  const bar = el("div", { id: "controls" });
  const button = (id, text, title) => el("button", { id, title }, text);
  const bFirst = button("first", "«", "first (Home)"), bBack = button("back", "‹", "back (←)"),
    bPlay = button("play", "▶", "play / pause (space)"), bNext = button("next", "›", "next (→)"),
    bLast = button("last", "»", "last (End)");
  const slider = el("input", { id: "slider", type: "range", min: "0", max: String(N), value: "0" });
  const stepText = el("span", { id: "step" });
  bar.append(bFirst, bBack, bPlay, bNext, bLast, slider, stepText);
  const eventText = el("div", { id: "event" });
  const list = el("ol", { id: "events" });
  controls.append(bar, eventText, list);
  const statesSec = el("section", {}, el("h2", { id: "states-title" }, "States"), el("div", { id: "states" }));
  const whySec = el("section", {}, el("h2", {}, "Why"), el("div", { id: "why" }, "Click a value to see where it came from."));
  const verifySec = el("section", { id: "verify" }, el("h2", {}, "Verify"));
  side.append(controls, statesSec, whySec, verifySec);
  if (data.facts) {
    // The function's facts (a heap analysis's): titled lists of lines.
    const factsSec = el("section", { id: "facts" }, el("h2", {}, "Facts"));
    for (const [title, lines] of data.facts) {
      factsSec.append(el("h3", {}, title), el("ul", {}, ...lines.map((l) => el("li", {}, l))));
    }
    side.append(factsSec);
  }
  if (!data.verify) verifySec.append("not run (--verify-runs 0)");
  else if (data.verify.kind === "heap") {
    // The heap checks describe a violation in words: no rule is blamed and no path drawn.
    const v = data.verify;
    const ran = v.runs + " concrete runs" + (v.tried > v.runs ? " (of " + v.tried + "; the others ran out of steps)" : "") + ", " + v.checked;
    if (v.count === 0) verifySec.append(el("span", { class: "good" }, ran + ": " + (v.holds || "every frame inside the analysis's heaps and values")));
    else {
      verifySec.append(el("div", { class: "bad" }, v.count + " violation" + (v.count === 1 ? "" : "s") + " in " + ran));
      verifySec.append(el("ul", {}, ...v.violations.map((t) => el("li", { class: "violation" }, t))));
    }
    verifySec.append(el("div", { class: "note" }, v.note || "Heap checks name no rule: the failing run's path is not drawn."));
  }
  else if (!wrong) verifySec.append(el("span", { class: "good" }, data.verify.runs + " concrete runs, every state inside the analysis's"));
  else {
    const v = wrong;
    verifySec.innerHTML = "<h2>Verify</h2><div class=\"bad\">A concrete run leaves the analysis</div>" +
      "<div>arguments (" + esc(v.args.join(", ")) + "): at " + esc(label(v.block)) + ", before `" + esc(v.text) + "`, " +
      (v.name === null ? "the point was inferred unreachable" : esc(v.name) + " = " + esc(v.concrete) + " but the analysis says " + esc(v.abstract)) +
      "</div><div>first wrong rule" + (v.culprit && v.culprit.block !== undefined ? " (red on " + esc(label(v.culprit.block)) + ")" : v.culprit ? " (on the edge " + esc(v.culprit.from) + " → " + esc(v.culprit.to) + ")" : "") +
      ": <code class=\"rule\">" + esc(v.rule || "none named") + "</code></div>" +
      "<div>path: " + v.path.map((b) => esc(label(b))).join(" → ") + " (red on the graph)</div>";
  }

  // ---- Moving through time. -----------------------------------------------------------------
  let t = 0, selected = 0, playing = null, whyTarget = null;
  function blockOf(e) { return e >= 0 && e < N ? events[e][1] : -1; }
  function summary(st) {
    if (st === null) return "unreachable";
    const parts = [];
    // A forward state leaves out what may be anything; a backward one's top is a demand, shown.
    st.forEach((v, n) => { if (v !== undefined && (BACKWARD || (v !== "⊤" && v !== "top"))) parts.push(names[n] + (ROWS ? ": " : " = ") + v); });
    return parts.length ? parts.join(", ") : BACKWARD ? "nothing demanded" : "⊤";
  }
  function relationSummary(b, t) {
    const text = relationText(relation(b, -1, t));
    return text ? " | " + text : "";
  }
  function fit(text, blk) {
    const max = Math.floor((blk.w - 12) / CHAR);
    return text.length > max ? text.slice(0, max - 1) + "…" : text;
  }
  function paintBlock(b) {
    if (b < 0 || !groups[b]) return;
    const st = state(b, -1, t);
    groups[b].classList.toggle("unreached", st === null);
    groups[b].querySelector("text.state").textContent = fit("in: " + summary(st) + relationSummary(b, t), blocks[b]);
  }
  function valueSpan(n, v, old, b, point) {
    const s = el("span", { class: ROWS ? "value row" : "value", "data-name": names[n], "data-block": b, "data-point": point }, names[n] + (ROWS ? ": " + (v === undefined ? "gone" : v) : " = " + valueText(v)));
    if (old !== v) s.classList.add("changed");
    s.addEventListener("click", () => { whyTarget = [n, b, point]; showWhy(); });
    return s;
  }
  function paintStates() {
    const b = selected, blk = blocks[b];
    document.getElementById("states-title").textContent = "States of " + blk.label + " at step " + t;
    const table = el("table", { class: "states" });
    const row = (pointText, point, only) => {
      const now = state(b, point, t), before = state(b, point, Math.max(0, t - 1));
      const cell = el("td", {});
      if (now === null) cell.append(el("span", { class: "unreachable" }, "unreachable"));
      else names.forEach((_, n) => {
        if (only !== undefined && (ROWS ? !only.has(n) : n !== only)) return;
        if (ROWS && now[n] === undefined && only === undefined) return;
        cell.append(valueSpan(n, now[n], before === null ? null : before[n], b, point));
      });
      if (now !== null && data.relation) {
        const rel = shown(relation(b, point, t)), old = shown(relation(b, point, Math.max(0, t - 1)));
        if (rel.length) {
          const line = el("div", { class: "relation" }, el("span", { class: "bar" }, "| "));
          for (const c of rel) {
            const span = el("span", { class: "constraint", "data-block": b, "data-point": point }, c);
            if (!old.includes(c)) span.classList.add("changed");
            span.addEventListener("click", () => { whyTarget = ["relation", c, b, point]; showWhy(); });
            line.append(span);
          }
          cell.append(line);
        }
      }
      table.append(el("tr", {}, el("td", { class: "point" }, pointText), cell));
    };
    row("entry", -1);
    if (ROWS) {
      // After each statement, the rows it changed in the block's last transfer.
      const tr = lastBelow(transfers[b], t);
      if (tr >= 0) for (const [k, diff] of events[tr][2]) {
        const changed = new Set();
        for (let i = 0; i < diff.length; i += 2) if (diff[i] >= 0) changed.add(diff[i]);
        if (changed.size) row(blk.lines[blk.phis.length + k], k, changed);
      }
    } else blk.stmts.forEach((st, k) => { if (st.def >= 0) row(blk.lines[blk.phis.length + k], k, st.def); });
    row("exit", "exit");
    const box = document.getElementById("states");
    box.replaceChildren(table);
  }
  function renderTree(node) {
    const li = el("li", { class: "why-step", "data-kind": node.kind });
    li.append(el("span", { class: "tag" }, node.kind), el("span", { class: "what" }, node.text));
    if (node.source) li.append(el("span", { class: "source" }, node.source));
    if (node.more) {
      const more = el("span", { class: "more" }, " (expand)");
      more.addEventListener("click", () => li.replaceWith(renderTree(node.more())));
      li.append(more);
    }
    if (node.children.length) li.append(el("ul", {}, ...node.children.map(renderTree)));
    return li;
  }
  function showWhy() {
    const box = document.getElementById("why");
    if (!whyTarget) return;
    const constraint = whyTarget[0] === "relation";
    const [n, b, point] = constraint ? whyTarget.slice(1) : whyTarget;
    const where = point === -1 ? "entry" : point === "exit" ? "exit" : "after `" + blocks[b].lines[blocks[b].phis.length + point] + "`";
    const tree = constraint ? whyConstraint(n, b, point, t, fresh()) : why(n, b, point, t, fresh());
    box.replaceChildren(el("div", {}, "Why " + (constraint ? n : names[n]) + " at " + blocks[b].label + " " + where + ", step " + t + ":"),
      el("ul", {}, renderTree(tree)));
  }
  function paintList() {
    const from = Math.max(0, t - 8), to = Math.min(N, from + 24);
    const items = [];
    for (let e = from; e < to; e++) {
      const li = el("li", { "data-event": e, class: "k-" + KINDS[events[e][0]] + (e === t - 1 ? " current" : e >= t ? " future" : "") });
      li.append(el("span", { class: "k" }, (e + 1) + " " + KINDS[events[e][0]]), describe(e).replace(/^\S+ /, ""));
      li.addEventListener("click", () => go(e + 1));
      items.push(li);
    }
    list.replaceChildren(...items);
  }
  let current = -1;
  function go(target, repaintAll) {
    const old = t;
    t = Math.max(0, Math.min(N, target));
    slider.value = String(t);
    stepText.textContent = "step " + t + " of " + N;
    eventText.textContent = t === 0 ? "before the first event" : describe(t - 1);
    if (current >= 0 && groups[current]) groups[current].classList.remove("current");
    current = blockOf(t - 1);
    if (current >= 0) {
      if (groups[current]) groups[current].classList.add("current");
      selected = current;
    }
    if (repaintAll || Math.abs(t - old) > 1) blocks.forEach((_, b) => paintBlock(b));
    else { if (old > 0 && old <= N) paintBlock(blockOf(old - 1)); if (current >= 0) paintBlock(current); }
    groups.forEach((g, b) => g && g.classList.toggle("selected", b === selected && b !== current));
    paintStates();
    paintList();
    if (whyTarget) showWhy();
    if (current >= 0) scrollTo(current);
  }
  function scrollTo(b) {
    const a = box(blocks[b]);
    const pane = graphPane, scale = zoom;
    const x = a.cx * scale - pane.clientWidth / 2, y = a.top * scale - pane.clientHeight / 3;
    if (a.left * scale < pane.scrollLeft || a.right * scale > pane.scrollLeft + pane.clientWidth ||
        a.top * scale < pane.scrollTop || a.bottom * scale > pane.scrollTop + pane.clientHeight) pane.scrollTo(x, y);
  }
  function play() {
    if (playing) { clearInterval(playing); playing = null; bPlay.textContent = "▶"; return; }
    if (t >= N) go(0);
    bPlay.textContent = "❚❚";
    playing = setInterval(() => { if (t >= N) play(); else go(t + 1); }, 250);
  }
  let zoom = 1;
  function setZoom(z) {
    zoom = Math.max(0.1, Math.min(3, z));
    svgEl.setAttribute("width", String(width * zoom));
    svgEl.setAttribute("height", String(height * zoom));
    drawVisible();
  }
  bFirst.onclick = () => go(0);
  bBack.onclick = () => go(t - 1);
  bPlay.onclick = play;
  bNext.onclick = () => go(t + 1);
  bLast.onclick = () => go(N);
  slider.oninput = () => go(Number(slider.value));
  svgEl.addEventListener("click", (ev) => {
    const g = ev.target.closest("g.block");
    if (!g) return;
    selected = Number(g.dataset.block);
    groups.forEach((h, b) => h && h.classList.toggle("selected", b === selected && b !== current));
    paintStates();
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement && ev.key !== " ") return;
    const by = ev.shiftKey ? 10 : 1;
    switch (ev.key) {
      case "ArrowRight": case "l": go(t + by); break;
      case "ArrowLeft": case "h": go(t - by); break;
      case "Home": go(0); break;
      case "End": go(N); break;
      case " ": play(); break;
      case "+": case "=": setZoom(zoom * 1.25); break;
      case "-": setZoom(zoom / 1.25); break;
      default: return;
    }
    ev.preventDefault();
  });
  drawVisible();
  timings.drawn = performance.now();
  go(0, false);
  timings.ready = performance.now();
  // The first frame is laid out and painted once this callback returns; the timeout runs
  // after it.
  requestAnimationFrame(() => setTimeout(() => {
    timings.painted = performance.now();
    if (width > graphPane.clientWidth * 2) setZoom(Math.max(0.25, graphPane.clientWidth / width));
  }, 0));

  // For tests and for the console: the viewer's state and its questions.
  window.absinthe = {
    events: N,
    timings,
    time: () => t,
    go: (target) => go(target),
    select: (b) => { selected = b; paintStates(); },
    currentBlock: () => (current >= 0 ? blocks[current].label : null),
    describe: (e) => describe(e),
    state: (b, point) => {
      const st = state(b, point, t);
      if (st === null) return null;
      const out = {};
      st.forEach((v, n) => { if (!ROWS || v !== undefined) out[names[n]] = valueText(v); });
      return out;
    },
    why: (name, b, point) => flatten(why(names.indexOf(name), b, point, t, fresh()), 0, []),
    relation: (b, point) => relation(b, point, t),
    shownRelation: (b, point) => shown(relation(b, point, t)),
    whyConstraint: (text, b, point) => flatten(whyConstraint(text, b, point, t, fresh()), 0, []),
    blockIndex: (labelText) => blocks.findIndex((b) => b.label === labelText),
  };
})();
