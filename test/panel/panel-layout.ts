// What is wrong with the panel's layout as a person sees it, measured in the page itself: the
// same checks for the panel in headless Chromium (panel-screenshots) and inside code-server's
// webview (test/vscode/code-server-screenshots).
import type { Frame, Page } from 'playwright-core';

/** Elements missing, hidden, outside the view or cut; `must` are the selectors this state needs. */
export async function layoutProblems(page: Page | Frame, must: string[]): Promise<string[]> {
  return page.evaluate((selectors) => {
    const problems: string[] = [];
    const width = window.innerWidth;
    const height = window.innerHeight;
    if (document.documentElement.scrollWidth > width) problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`);
    const inside = (e: Element, what: string, vertical: boolean) => {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return problems.push(`${what} is not visible`);
      if (r.left < -0.5 || r.right > width + 0.5) problems.push(`${what} sticks out sideways (${Math.round(r.left)}..${Math.round(r.right)} of ${width})`);
      if (vertical && (r.top < -0.5 || r.bottom > height + 0.5)) problems.push(`${what} is outside the view (${Math.round(r.top)}..${Math.round(r.bottom)} of ${height})`);
    };
    for (const selector of selectors) {
      const found = document.querySelector(selector);
      if (!found) problems.push(`${selector} is missing`);
      else inside(found, selector, true);
    }
    // Always: the header, the composer and its buttons in the view, and no badge, status or tab cut.
    for (const selector of ['header', '#composer', '#send', '#stop', '#prompt', '#tabs']) inside(document.querySelector(selector)!, selector, true);
    for (const e of document.querySelectorAll('#tabs button:not([hidden]), .badge:not([hidden]), .status, #agent-choices button')) {
      const box = e as HTMLElement;
      if (box.offsetParent === null) continue;
      if (box.scrollWidth > box.clientWidth + 1) problems.push(`"${box.textContent?.trim()}" is cut (${box.scrollWidth} > ${box.clientWidth})`);
      const r = box.getBoundingClientRect();
      const scroller = box.closest('#log, #agent-setup, .tab');
      const view = scroller ? scroller.getBoundingClientRect() : { left: 0, right: width };
      if (r.left < view.left - 0.5 || r.right > view.right + 0.5) problems.push(`"${box.textContent?.trim()}" sticks out of its box`);
    }
    return problems;
  }, must);
}

/** Monaco and uPlot lay out on their own animation frames after a resize. */
export async function settled(page: Page | Frame): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}
