/**
 * The layout rules every page keeps from 400 px to wide (issue 36), measured in the page:
 * the document never scrolls sideways, nor does any region in it (only a picture that cannot
 * fold, marked `data-scrolls-sideways`: the braid); nothing sticks out of the window on either
 * side (the outermost culprits are named); no form field is narrower than its content (a
 * select shows its chosen option or takes its container's whole width; a text field has room
 * for a few characters); no button's label spills out of it; and no long value (a key, a hash,
 * an account: a run of 20 or more characters without a space) wraps into more than three
 * lines — such values are shortened with a copy control instead (text marked `data-wrap-ok`,
 * code blocks and the log excepted).
 */
import type { Page } from "playwright-core";

/** A narrow phone-sized window: the width every page is checked at. */
export const NARROW_VIEWPORT = { width: 400, height: 800 } as const;

/** The most lines one long value (a key, a hash) may take before it must be shortened. */
export const MAX_VALUE_LINES = 3;

/*
 * The probe runs in the page as plain JavaScript: the node's tsconfig has no DOM types (they
 * must not leak into src-node), so it is text evaluated by `layoutProblems`.
 */
const PROBE = String.raw`(maxLines) => {
  const problems = [];
  const root = document.documentElement;
  const viewport = root.clientWidth;
  const name = (e) => {
    const id = e.getAttribute("data-testid");
    const cls = typeof e.className === "string" ? e.className.trim().split(/\s+/)[0] : "";
    const label = e.getAttribute("aria-label");
    const text = (e.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
    return "<" + e.tagName.toLowerCase() + (id ? " data-testid=" + id : "") +
      (cls ? " ." + cls : "") + (label ? ' "' + label + '"' : "") + "> " + JSON.stringify(text);
  };
  const visible = (e) => {
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    const s = getComputedStyle(e);
    return s.visibility !== "hidden" && s.display !== "none";
  };
  // Inside a region that clips or scrolls sideways (that region is judged itself).
  const clipped = (e) => {
    for (let p = e.parentElement; p !== null && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== "visible") return true;
    }
    return false;
  };
  // Visually hidden text (a folded table's column names, kept for screen readers).
  const srOnly = (e) => {
    for (let p = e; p !== null; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.clipPath === "inset(50%)" || s.clip === "rect(0px, 0px, 0px, 0px)") return true;
    }
    return false;
  };
  const px = (n) => Math.round(n) + " px";

  if (root.scrollWidth > viewport) {
    problems.push("the page scrolls sideways: " + px(root.scrollWidth) + " of content in " + px(viewport));
  }
  const all = [...document.body.querySelectorAll("*")];
  // The outermost elements sticking out on either side (their children would repeat them).
  const out = all.filter((e) => {
    if (!visible(e) || clipped(e) || srOnly(e) || e.closest(".skip-link") !== null) return false;
    const r = e.getBoundingClientRect();
    return r.right > viewport + 1 || r.left < -1;
  });
  for (const e of out.filter((e) => !out.some((o) => o !== e && o.contains(e))).slice(0, 8)) {
    const r = e.getBoundingClientRect();
    problems.push("sticks out (" + px(r.left) + " to " + px(r.right) + "): " + name(e));
  }
  // Text overflowing a box that itself fits (an unbreakable key in a paragraph).
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = texts.nextNode(); n !== null; n = texts.nextNode()) {
    const parent = n.parentElement;
    if (parent === null || !visible(parent) || clipped(parent) || srOnly(parent)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const r = range.getBoundingClientRect();
    const box = parent.getBoundingClientRect();
    if ((r.right > viewport + 1 && box.right <= viewport + 1) || (r.left < -1 && box.left >= -1)) {
      problems.push("text sticks out (" + px(r.left) + " to " + px(r.right) + "): " + name(parent));
    }
  }
  for (const e of all) {
    const ox = getComputedStyle(e).overflowX;
    if ((ox !== "auto" && ox !== "scroll") || !visible(e) || srOnly(e)) continue;
    if (e.closest("[data-scrolls-sideways]") !== null) continue;
    if (e.scrollWidth > e.clientWidth + 1) {
      problems.push("a region scrolls sideways: " + px(e.scrollWidth) + " in " + px(e.clientWidth) + ": " + name(e));
    }
  }

  const canvas = document.createElement("canvas").getContext("2d");
  const textWidth = (text, e) => {
    const s = getComputedStyle(e);
    canvas.font = s.fontWeight + " " + s.fontSize + " " + s.fontFamily;
    return canvas.measureText(text).width;
  };
  for (const e of document.querySelectorAll("input, select, textarea")) {
    if (!visible(e) || srOnly(e)) continue;
    const type = e.getAttribute("type") ?? "text";
    if (["checkbox", "radio", "hidden", "range", "file", "color"].includes(type)) continue;
    const r = e.getBoundingClientRect();
    const em = Number.parseFloat(getComputedStyle(e).fontSize);
    if (e instanceof HTMLSelectElement) {
      const need = textWidth(e.selectedOptions[0]?.textContent ?? "", e) + 2 * em;
      const room = e.parentElement?.getBoundingClientRect().width ?? viewport;
      if (r.width + 1 < Math.min(need, room * 0.95)) {
        problems.push("a select is narrower than its option: " + px(r.width) + " for " + px(need) + ": " + name(e));
      }
    } else if (r.width < 4 * em) {
      problems.push("a field is " + px(r.width) + " wide: " + name(e));
    }
  }
  for (const e of document.querySelectorAll("button, a.btn, [role=button]")) {
    if (!visible(e) || srOnly(e) || clipped(e) || e.clientWidth === 0) continue;
    if (e.scrollWidth > e.clientWidth + 1) {
      problems.push("a button's label spills out: " + px(e.scrollWidth) + " in " + px(e.clientWidth) + ": " + name(e));
    }
  }

  // Long values (runs of 20 characters or more without a space) wrapped into many lines.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
    const text = n.textContent ?? "";
    const parent = n.parentElement;
    if (parent === null || !/\S{20,}/.test(text) || !visible(parent) || srOnly(parent)) continue;
    if (parent.closest("pre, textarea, .log-lines, .code-block, [data-wrap-ok]") !== null) continue;
    for (const m of text.matchAll(/\S{20,}/g)) {
      const range = document.createRange();
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > maxLines) {
        problems.push("a long value wraps into " + tops.size + " lines: " + name(parent));
        break;
      }
    }
  }
  return problems;
}`;

/**
 * What breaks the rules on the page now, one line per fault (none: `[]`); each names the
 * element (tag, test id, first class, label, the start of its text) and the sizes.
 */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(${PROBE})(${MAX_VALUE_LINES})`);
}
