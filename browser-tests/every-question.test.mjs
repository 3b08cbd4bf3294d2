// Every question a reader can ask of a page has an answer: for each page written from the
// repository's example programs (scripts/browser-tests.sh writes them as target/browser/all-*),
// at a few moments of the run, the state and the why tree of every name at every point of every
// block are computed without an error, and the first line of each why tree states the value the
// state panel shows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { ROOT, launch, openFile, pageErrors } from "./lib.mjs";

const DIR = join(ROOT, "target", "browser");
const pages = (await readdir(DIR).catch(() => [])).filter((f) => f.startsWith("all-") && f.endsWith(".html"));

test("there are example pages to ask", () => {
  assert.ok(pages.length >= 5, `pages: ${pages.join(", ")}`);
});

for (const name of pages) {
  test(`${name}: every name at every point answers`, async () => {
    const context = await launch();
    try {
      const page = await openFile(context, join(DIR, name));
      await page.waitForFunction(() => window.absinthe !== undefined);
      const problems = await page.evaluate(() => {
        const a = window.absinthe, out = [];
        const data = JSON.parse(document.getElementById("trace-data").textContent);
        const moments = [0, 1, Math.floor(a.events / 3), Math.floor(a.events / 2), a.events - 1, a.events];
        for (const t of moments) {
          a.go(t);
          data.blocks.forEach((blk, b) => {
            const points = [-1, ...blk.stmts.map((_, k) => k), "exit"];
            for (const point of points) {
              let state;
              try { state = a.state(b, point); } catch (e) { out.push(`state ${b} ${point} at ${t}: ${e}`); continue; }
              for (const n of data.names) {
                try {
                  const chain = a.why(n, b, point);
                  if (!chain.length) out.push(`why ${n} ${b} ${point} at ${t}: empty`);
                  // Where the value is known, the tree's root says it.
                  const v = state && state[n];
                  if (v && v !== "⊥" && chain[0].kind !== "input" && !chain[0].text.endsWith(`${n} = ${v}`) && !chain[0].text.includes(`${n} = ${v} `)) {
                    out.push(`why ${n} at ${blk.label} ${point}, step ${t}: root "${chain[0].text}" but the state says ${v}`);
                  }
                } catch (e) {
                  out.push(`why ${n} ${b} ${point} at ${t}: ${e}`);
                }
              }
            }
          });
        }
        return out;
      });
      assert.deepEqual(problems.slice(0, 10), []);
      assert.deepEqual(pageErrors(page), []);
    } finally {
      await context.close();
    }
  });
}
