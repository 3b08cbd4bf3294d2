// The trace viewer (`absinthe trace --html`) in a real browser. scripts/browser-tests.sh writes
// the pages under test, and the JSON traces of the same runs, into target/browser first.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { ROOT, launch, openFile, pageErrors, screenshot } from "./lib.mjs";

const PAGES = join(ROOT, "target", "browser");
const page = (name) => join(PAGES, name);

async function open(name) {
  const context = await launch();
  const p = await openFile(context, page(name));
  await p.waitForFunction(() => window.absinthe !== undefined);
  return { context, p };
}

// The engine events of a JSON trace (reductions left out: the viewer attributes them to the
// statement or edge that made them, so they sit in other places of its stream).
async function engineEvents(name) {
  const trace = JSON.parse(await readFile(page(name), "utf8"));
  return { trace, events: trace.events.filter((e) => e.kind !== "reduce") };
}

for (const name of ["prog0", "count", "signs", "backward"]) {
  test(`${name}: at every event the viewer shows the states the engine had`, async () => {
    const { trace, events } = await engineEvents(`${name}.json`);
    const { context, p } = await open(`${name}.html`);
    try {
      // The viewer's events, engine events only, with their times.
      const times = await p.evaluate(() => {
        const out = [];
        for (let e = 0; e < window.absinthe.events; e++) {
          if (!window.absinthe.describe(e).startsWith("reduce")) out.push(e + 1);
        }
        return out;
      });
      assert.equal(times.length, events.length, "as many engine events as the JSON trace");
      for (let k = 0; k < events.length; k++) {
        const ev = events[k];
        const expected = ev.kind === "transfer" ? ev.after : ev.kind === "join" ? ev.result
          : ev.kind === "visit" ? undefined : ev.after;
        await p.evaluate((t) => window.absinthe.go(t), times[k]);
        // A backward engine transfers a block's end to its start and joins into its end.
        const after = name === "backward" ? -1 : "exit";
        const into = name === "backward" ? "exit" : -1;
        const shown = await p.evaluate(({ b, point }) => ({
          state: window.absinthe.state(b, point),
          current: window.absinthe.currentBlock(),
          highlighted: document.querySelector("g.block.current")?.dataset.block,
        }), { b: ev.block, point: ev.kind === "transfer" ? after : into });
        assert.equal(shown.current, trace.blocks[ev.block].label, `event ${k}: current block`);
        assert.equal(Number(shown.highlighted), ev.block, `event ${k}: highlighted block`);
        if (expected !== undefined) assert.deepEqual(shown.state, expected, `event ${k} (${ev.kind})`);
      }
      const result = await p.evaluate(() => {
        window.absinthe.go(window.absinthe.events);
        return document.querySelectorAll("g.block").length;
      });
      assert.equal(result, trace.blocks.length);
      await screenshot(p, `${name}-end`);
      assert.deepEqual(pageErrors(p), []);
    } finally {
      await context.close();
    }
  });
}

test("count: the keyboard and the buttons step through the run; a widening is shown as one", async () => {
  const { context, p } = await open("count.html");
  try {
    const n = await p.evaluate(() => window.absinthe.events);
    await p.keyboard.press("End");
    assert.equal(await p.evaluate(() => window.absinthe.time()), n);
    await p.keyboard.press("ArrowLeft");
    assert.equal(await p.evaluate(() => window.absinthe.time()), n - 1);
    await p.keyboard.press("Home");
    assert.equal(await p.evaluate(() => window.absinthe.time()), 0);
    assert.equal(await p.textContent("#event"), "before the first event");
    // Step forward with the button until the first widening.
    let text = "";
    for (let i = 0; i < n && !text.startsWith("widen"); i++) {
      await p.click("#next");
      text = await p.textContent("#event");
    }
    assert.match(text, /^widen at head: i = \[0, \d+\]$/);
    assert.equal(await p.getAttribute("g.block.current", "data-block"),
      String(await p.evaluate(() => window.absinthe.blockIndex("head"))));
    // The entry of head changed at this step: its value is marked.
    assert.equal(await p.textContent("#states-title"), `States of head at step ${await p.evaluate(() => window.absinthe.time())}`);
    assert.match(await p.textContent("#states span.value.changed"), /^i = \[0, \d+\]$/);
    await screenshot(p, "count-widen");
    // Shift+→ moves ten events.
    const before = await p.evaluate(() => window.absinthe.time());
    await p.keyboard.press("Shift+ArrowRight");
    assert.equal(await p.evaluate(() => window.absinthe.time()), Math.min(n, before + 10));
    assert.deepEqual(pageErrors(p), []);
  } finally {
    await context.close();
  }
});

test("count: why a loop's exit value is what it is goes through the widening back to `i = 0`", async () => {
  const { context, p } = await open("count.html");
  try {
    await p.keyboard.press("End");
    const done = await p.evaluate(() => window.absinthe.blockIndex("done"));
    const chain = await p.evaluate((b) => window.absinthe.why("i", b, -1), done);
    const text = chain.map((l) => l.text).join("\n");
    assert.match(chain[0].text, /join into done gives i = \[10, 10\]/);
    assert.match(text, /edge head → done refined by `br i < 10, body, done`/);
    assert.match(text, /widening at head gives i = \[0, 10\]/);
    assert.match(text, /`i = i \+ 1` in body gives i = \[1, 10\]/);
    assert.match(text, /`i = 0` in bb0 gives i = \[0, 0\]/);
    // Each rule names where it is implemented.
    assert.ok(chain.some((l) => l.kind === "rule" && /interval\.rs:\d+$/.test(l.source ?? "")),
      "the interval `+` is linked to its Rust source");
    // The same chain in the page, by clicking the value.
    await p.click(`g.block[data-block="${done}"]`);
    await p.click('#states span.value[data-point="-1"]');
    assert.match(await p.textContent("#why"), /widening at head/);
    await screenshot(p, "count-why");
    assert.deepEqual(pageErrors(p), []);
  } finally {
    await context.close();
  }
});

test("signs: why names the reductions and rules, each with its source", async () => {
  const { context, p } = await open("signs.html");
  try {
    await p.keyboard.press("End");
    const pos = await p.evaluate(() => window.absinthe.blockIndex("pos"));
    const chain = await p.evaluate((b) => window.absinthe.why("z", b, "exit"), pos);
    assert.match(chain[0].text, /`z = y \+ 1` in pos gives z = \{sign: Pos, parity: Odd, interval: \[3, 3\], constant: 3\}/);
    const reductions = chain.filter((l) => l.kind === "reduce");
    assert.ok(reductions.some((l) => /sign_from_interval/.test(l.text) && /signs\.rs:\d+$/.test(l.source)));
    assert.ok(reductions.some((l) => /interval_from_parity/.test(l.text) && /\[1, 2\] → \[2, 2\]/.test(l.text)));
    const rules = chain.filter((l) => l.kind === "rule");
    assert.ok(rules.some((l) => /parity/.test(l.text) && /signs\.rs:\d+$/.test(l.source)), "the parity `+` rule");
    await p.click(`g.block[data-block="${pos}"]`);
    await p.click('#states span.value[data-name="z"][data-point="exit"]');
    const why = await p.textContent("#why");
    assert.match(why, /sign_from_interval/);
    assert.match(why, /the function's entry: x = ⊤/);
    await screenshot(p, "signs-why");
    assert.deepEqual(pageErrors(p), []);
  } finally {
    await context.close();
  }
});

test("a verify failure: the failing run's path and the wrong rule are drawn on the graph", async () => {
  const { context, p } = await open("wrong.html");
  try {
    const body = await p.evaluate(() => window.absinthe.blockIndex("body"));
    assert.equal(await p.getAttribute("g.block.failing", "data-block"), String(body));
    assert.equal(await p.textContent("g.block.failing text.wrong"), "i = i + 1");
    assert.equal(await p.locator("path.edge.on-path").count(), 2);
    const verify = await p.textContent("#verify");
    assert.match(verify, /A concrete run leaves the analysis/);
    assert.match(verify, /parity_add_wrong` at browser-tests\/data\/wrong_parity\.dom:23:1/);
    assert.match(verify, /path: bb0 → head → body/);
    await screenshot(p, "wrong-verify");
    assert.deepEqual(pageErrors(p), []);
  } finally {
    await context.close();
  }
});

test("a function of 10^4 blocks: the page loads and steps (figures printed)", async (t) => {
  const file = page("big.html");
  const size = await stat(file).then((s) => s.size, () => 0);
  if (size === 0) {
    t.skip("no big.html (scripts/browser-tests.sh writes it)");
    return;
  }
  const context = await launch();
  try {
    const start = Date.now();
    const p = await openFile(context, file);
    await p.waitForFunction(() => window.absinthe !== undefined && window.absinthe.timings.painted);
    const loaded = Date.now() - start;
    // From the request for the page to its first frame, by the page's own clock.
    const firstFrame = await p.evaluate(() => performance.timeOrigin + window.absinthe.timings.painted);
    const n = await p.evaluate(() => window.absinthe.events);
    const jump = await p.evaluate(() => {
      const t0 = performance.now();
      window.absinthe.go(Math.floor(window.absinthe.events / 2));
      return performance.now() - t0;
    });
    const step = await p.evaluate(() => {
      const t0 = performance.now();
      for (let i = 0; i < 100; i++) window.absinthe.go(window.absinthe.time() + 1);
      return (performance.now() - t0) / 100;
    });
    const blocks = await p.locator("g.block").count();
    const timings = await p.evaluate(() => window.absinthe.timings);
    const phases = Object.entries(timings).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(", ");
    console.log(`big page: ${(size / 1e6).toFixed(1)} MB, ${blocks} blocks, ${n} events; ` +
      `first frame ${(firstFrame - start).toFixed(0)} ms after the test asked for the page ` +
      `(${loaded} ms until the test saw it; ms since navigation: ${phases}); a jump to the middle ` +
      `${jump.toFixed(0)} ms; a step ${step.toFixed(1)} ms`);
    assert.ok(n > 0);
    await screenshot(p, "big-middle");
    assert.deepEqual(pageErrors(p), []);
  } finally {
    await context.close();
  }
});

test("backward: the verify panel says what a backward analysis's runs checked", async () => {
  const { context, p } = await open("backward.html");
  try {
    const verify = await p.textContent("#verify");
    assert.match(verify, /concrete runs, \d+ points and \d+ demands: every value the run needed demanded/);
    assert.match(verify, /Backward checks name the point and the name/);
    // Before `k = n * 3` (block `entry`, statement 0): `x` (which may be an object), `n`, `d`.
    await p.evaluate(() => window.absinthe.go(window.absinthe.events));
    const entry = await p.evaluate(() => window.absinthe.state(window.absinthe.blockIndex("entry"), -1));
    assert.deepEqual(entry, { x: "⊤", n: "⊤", d: "⊤" });
    // After `q = n / d` (statement 4), that is before `i = 0`: only `n`, as `analyze` prints.
    const afterDivision = await p.evaluate(() => window.absinthe.state(window.absinthe.blockIndex("entry"), 4));
    assert.deepEqual(afterDivision, { n: "⊤" });
    // The block's end, where the engine joined its successor's demands.
    const end = await p.evaluate(() => window.absinthe.state(window.absinthe.blockIndex("entry"), "exit"));
    assert.deepEqual(end, { n: "⊤", i: "⊤", s: "⊤" });
    assert.deepEqual(pageErrors(p), []);
  } finally {
    await context.close();
  }
});
