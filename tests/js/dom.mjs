// A DOM for the React and Vue tests under node: happy-dom's window, with the
// few globals react-dom and Vue's DOM renderer look up. Import it before them.
import { Window } from 'happy-dom';

const window = new Window({ url: 'http://localhost/' });
for (const name of ['window', 'document', 'navigator', 'Node', 'Element', 'HTMLElement', 'SVGElement',
  'Text', 'Comment', 'DocumentFragment', 'Event', 'MouseEvent', 'MutationObserver', 'getComputedStyle']) {
  const value = name === 'window' ? window : window[name];
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
}
// React's act() warns unless the environment says it is a test.
globalThis.IS_REACT_ACT_ENVIRONMENT = true;

/** A fresh element to render into. */
export function container() {
  const element = document.createElement('div');
  document.body.appendChild(element);
  return element;
}
