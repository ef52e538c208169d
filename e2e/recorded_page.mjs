// A fresh browser context (in-memory profile) and page that records what the
// dashboard reports only fleetingly: page errors, and every error toast it
// shows (a failing egress or stats poll is shown in its toast for 6 s).

/**
 * @param {import('@playwright/test').Browser} browser
 * @param {{ width: number, height: number }} viewport
 * @returns {Promise<{ context: object, page: object, errors: Error[] }>} `window.errorToasts` in the page holds the toasts' texts
 */
export async function openRecordedPage(browser, viewport) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error));
  await page.addInitScript(() => {
    window.errorToasts = [];
    document.addEventListener('DOMContentLoaded', () => {
      const toast = document.querySelector('#toast');
      new MutationObserver(() => {
        if (toast.classList.contains('error')) window.errorToasts.push(toast.textContent);
      }).observe(toast, { attributes: true, childList: true, characterData: true, subtree: true });
    });
  });
  return { context, page, errors };
}
