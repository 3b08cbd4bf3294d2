// The viewer of a relational analysis (`--analysis octagon` on ir/test_data/below_n.air, written
// by scripts/browser-tests.sh into target/browser): the relation the engine had is shown at each
// point, and the why trees say which constraints a bound came from and that they add up.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ROOT, launch, openFile, pageErrors, screenshot } from "./lib.mjs";

const PAGES = join(ROOT, "target", "browser");

async function open(name) {
  const context = await launch();
  const p = await openFile(context, join(PAGES, name));
  await p.waitForFunction(() => window.absinthe !== undefined);
  return { context, p };
}

test("octagon: at every event the viewer shows the relation the engine had", async () => {
  const trace = JSON.parse(await readFile(join(PAGES, "octagon.json"), "utf8"));
  const events = trace.events.filter((e) => e.kind !== "reduce");
  const { context, p } = await open("octagon.html");
  try {
    const times = await p.evaluate(() => {
      const out = [];
      for (let e = 0; e < window.absinthe.events; e++) {
        if (!window.absinthe.describe(e).startsWith("reduce")) out.push(e + 1);
      }
      return out;
    });
    assert.equal(times.length, events.length);
    for (let k = 0; k < events.length; k++) {
      const ev = events[k];
      if (ev.kind === "visit") continue;
      const expected = ev.kind === "join" ? ev.relation.result : ev.relation.after;
      await p.evaluate((t) => window.absinthe.go(t), times[k]);
      const shown = await p.evaluate(({ b, point }) => window.absinthe.relation(b, point),
        { b: ev.block, point: ev.kind === "transfer" ? "exit" : -1 });
      assert.deepEqual(shown, expected, `event ${k} (${ev.kind} of block ${ev.block})`);
    }
    assert.deepEqual(pageErrors(p), []);
  } finally {
    await context.close();
  }
});

test("octagon: the states panel shows i - n ≤ -1 in the body, and its why tree names the guard", async () => {
  const { context, p } = await open("octagon.html");
  try {
    await p.evaluate(() => { window.absinthe.go(window.absinthe.events); });
    const body = await p.evaluate(() => window.absinthe.blockIndex("body"));
    await p.evaluate((b) => window.absinthe.select(b), body);
    const constraints = await p.$$eval("#states span.constraint", (spans) => spans.map((s) => s.textContent));
    assert.ok(constraints.includes("i - n ≤ -1"), `constraints shown: ${constraints.join("; ")}`);
    // Clicking the constraint explains it: made by the guard of the edge head → body.
    await p.click("#states span.constraint >> text=i - n ≤ -1");
    const why = await p.textContent("#why");
    assert.match(why, /i - n ≤ -1/);
    const tree = await p.evaluate((b) => window.absinthe.whyConstraint("i - n ≤ -1", b, -1), body);
    const texts = tree.map((n) => n.text);
    assert.ok(texts.some((t) => /edge head → body \(`br i < n, body, done`\) gives i - n ≤ -1/.test(t)), texts.join("\n"));
    assert.ok(texts.some((t) => /i - n ≤ -1: made by the edge head → body/.test(t)), texts.join("\n"));
    await screenshot(p, "octagon-why-constraint");
    assert.deepEqual(pageErrors(p), []);
  } finally {
    await context.close();
  }
});

test("octagon: the bound of i in the body is explained by the closure step that derived it", async () => {
  const { context, p } = await open("octagon.html");
  try {
    await p.evaluate(() => { window.absinthe.go(window.absinthe.events); });
    const body = await p.evaluate(() => window.absinthe.blockIndex("body"));
    const tree = await p.evaluate((b) => window.absinthe.why("i", b, -1), body);
    const texts = tree.map((n) => n.text);
    // i ≤ 2^63 - 2 in the body: i - n ≤ -1 (the guard) plus n ≤ 2^63 - 1 (the 64-bit range).
    const sum = tree.find((n) => n.kind === "closure" && n.text.startsWith("i ≤ 9223372036854775806"));
    assert.ok(sum, texts.join("\n"));
    const m = /^i ≤ (\d+): the sum of (.*) ≤ (-?\d+) and (.*) ≤ (-?\d+)$/.exec(sum.text);
    assert.ok(m, sum.text);
    assert.deepEqual([m[2], m[4]].sort(), ["i - n", "n"]);
    assert.equal(BigInt(m[3]) + BigInt(m[5]), BigInt(m[1]), "the constraints add up to the bound");
    assert.ok(texts.some((t) => t === "n ≤ 9223372036854775807: the range of 64-bit values"), texts.join("\n"));
    assert.ok(texts.some((t) => /^the relation bounds i: i ≤ 9223372036854775806$/.test(t)), texts.join("\n"));
    assert.deepEqual(pageErrors(p), []);
  } finally {
    await context.close();
  }
});
