// The browser example of docs/getting-started.md runs in Chromium as the
// page shows it: its ```js browser block, as a module script importing
// 'freshet' (mapped to the package's browser entry), on a page with the
// markup the text describes; clicks insert rows and the counts on screen
// follow, as p.snapshot() has them.
import { readFileSync } from 'node:fs';

import { expect, test } from '@playwright/test';

const PAGE = readFileSync(new URL('../docs/getting-started.md', import.meta.url), 'utf8');
const EXAMPLE = /^## Browser$[\s\S]*?^```js browser\n([\s\S]*?)^```$/m.exec(PAGE)?.[1];

/** The page the text describes: `<pre id="counts">` and buttons with data-name, the block as a module. */
function html(code) {
  return `<!doctype html><meta charset="utf-8">
<script type="importmap">{ "imports": { "freshet": "/wasm-bindings/js/browser.js" } }</script>
<pre id="counts"></pre>
<button data-name="a">a</button> <button data-name="b">b</button>
<script type="module">${code}
window.example = { p };
</script>`;
}

test('the browser example of getting-started.md counts clicks', async ({ page }) => {
  expect(EXAMPLE, 'the Browser section has a js browser block').toBeTruthy();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error));
  await page.route('**/e2e/page/docs-example.html', (route) => route.fulfill({ contentType: 'text/html', body: html(EXAMPLE) }));
  await page.goto('/e2e/page/docs-example.html');
  await page.waitForFunction(() => window.example !== undefined);

  await page.click('button[data-name="a"]');
  await page.click('button[data-name="b"]');
  await page.click('button[data-name="a"]');
  await expect(page.locator('#counts')).toHaveText(/^(a: 2\nb: 1|b: 1\na: 2)$/);
  const snapshot = await page.evaluate(() => window.example.p.snapshot('counts'));
  expect(snapshot.sort((x, y) => x.button.localeCompare(y.button))).toEqual([{ button: 'a', n: 2 }, { button: 'b', n: 1 }]);
  expect(errors).toEqual([]);
});
