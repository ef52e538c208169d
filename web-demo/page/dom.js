// Tiny DOM helpers: the page has no framework.

/** document.createElement with attributes/properties and children. */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (name === 'class') element.className = value;
    else if (name === 'dataset') Object.assign(element.dataset, value);
    else if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (name === 'text') element.textContent = value;
    else element.setAttribute(name, value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) element.append(child);
  return element;
}

/** A row's JSON for data-row (tests compare it with snapshot()); BigInts as strings. */
export const rowData = (row) => JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? v.toString() : v));

export const SVG = 'http://www.w3.org/2000/svg';

export function svg(tag, attributes = {}) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}
