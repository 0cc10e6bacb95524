// Small helpers for the page's elements: lookup by id, SVG elements and the error banner (a toast).

const SVGNS = 'http://www.w3.org/2000/svg';

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** A new SVG element with these attributes, appended to `parent` when one is given. */
export function svg(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

let errorTimer = null;

/** Shows a line in the error banner, a toast over the page's foot that moves nothing (the last
 * four lines are kept; it hides after 15 s). A line already shown is not added again: it moves to
 * the end, and its time starts again. */
export function showError(text) {
  const box = $('error');
  box.hidden = false;
  for (const old of Array.from(box.children)) if (old.textContent === text) old.remove();
  const line = document.createElement('div');
  line.className = 'error-line';
  line.textContent = text;
  box.appendChild(line);
  while (box.children.length > 4) box.removeChild(box.firstChild);
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => {
    box.hidden = true;
    box.textContent = '';
  }, 15000);
}
