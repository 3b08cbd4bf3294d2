// The harness itself: Chromium starts, runs a page's inline script from a file:// URL, takes
// clicks, and screenshots land in target/browser/screenshots.
import assert from "node:assert/strict";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { launch, openFile, pageErrors, screenshot } from "./lib.mjs";

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>smoke</title>
<style>body { font: 16px sans-serif; margin: 2em } #out { margin-top: 1em; color: #063 }</style>
</head>
<body>
<h1>Browser-test smoke page</h1>
<button id="go">Click me</button>
<div id="out">not clicked</div>
<script>
document.getElementById("go").addEventListener("click", () => {
  document.getElementById("out").textContent = "clicked";
});
</script>
</body>
</html>
`;

let context;
let dir;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "absinthe-smoke-"));
  context = await launch();
});

after(async () => {
  await context?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("a click runs the page's inline script", async () => {
  const file = join(dir, "smoke.html");
  await writeFile(file, PAGE);
  const page = await openFile(context, file);
  assert.equal(await page.title(), "smoke");
  assert.equal(await page.textContent("#out"), "not clicked");
  await page.click("#go");
  assert.equal(await page.textContent("#out"), "clicked");
  const png = await screenshot(page, "smoke");
  assert.ok((await stat(png)).size > 1000, `${png} is too small to be a screenshot`);
  assert.deepEqual(pageErrors(page), []);
});
