// The browser tests' harness: headless Chromium (Debian's, not a Playwright download) driven
// by playwright-core. scripts/browser-tests.sh installs the browser and sets CHROMIUM.
//
//   const context = await launch();
//   const page = await openFile(context, "target/browser/trace.html");
//   await page.click("button");
//   await screenshot(page, "trace-after-click");
//   assert.deepEqual(pageErrors(page), []);
//   await context.close(); // also removes the temporary profile
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

/** The repository's root: paths below are relative to it, wherever the tests run from. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Where `screenshot` writes. */
export const SCREENSHOTS = join(ROOT, "target", "browser", "screenshots");

/** The Chromium executable: `$CHROMIUM`, else Debian's. */
export const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

// What headless Chromium needs on these machines: without the background-networking flags
// its own connections (which go nowhere here) are refused over and over.
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Launches headless Chromium with a fresh, empty profile directory and returns its browser
 * context (a Playwright BrowserContext: `context.newPage()`, ...). Its `close()` closes the
 * browser and removes the profile. The viewport is fixed (1280×800, scale 1) so screenshots
 * are comparable from run to run.
 */
export async function launch({ viewport = { width: 1280, height: 800 } } = {}) {
  const profile = await mkdtemp(join(tmpdir(), "absinthe-chromium-"));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport,
      deviceScaleFactor: 1,
      timeout: 60_000,
    });
  } catch (e) {
    await rm(profile, { recursive: true, force: true });
    throw e;
  }
  const close = context.close.bind(context);
  context.close = async (...args) => {
    try {
      await close(...args);
    } finally {
      await rm(profile, { recursive: true, force: true });
    }
  };
  return context;
}

const errors = new WeakMap();

/**
 * Opens a local HTML file (a path, relative to the current directory or absolute) in a new
 * page of `context`, as a file:// URL, and waits for its load event. Returns the page.
 * Uncaught exceptions and console errors on the page are kept: see `pageErrors`.
 */
export async function openFile(context, path) {
  const page = await context.newPage();
  const seen = [];
  errors.set(page, seen);
  page.on("pageerror", (e) => seen.push(`uncaught: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") seen.push(`console.error: ${m.text()}`);
  });
  await page.goto(pathToFileURL(resolve(path)).href, { waitUntil: "load" });
  return page;
}

/** The uncaught exceptions and console errors of a page opened by `openFile`, so far. */
export function pageErrors(page) {
  return [...(errors.get(page) ?? [])];
}

/**
 * Saves a full-page PNG of `page` as target/browser/screenshots/NAME.png (under the
 * repository's root) and returns its path.
 */
export async function screenshot(page, name) {
  await mkdir(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
