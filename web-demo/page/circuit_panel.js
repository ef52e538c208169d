// The circuit card: the running program's operators (p.explain / p.inspect,
// sent by the worker with its status) as boxes laid out by depth, left to
// right, with edges from each input; each box shows the operator's state
// and time in the last step, updated with every status.

import { h, svg } from './dom.js';
import { setText } from './top_products.js';
import { formatBytes, formatCount } from './format.js';

const BOX_W = 150;
const BOX_H = 54;
const GAP_X = 40;
const GAP_Y = 12;

/** Column of each operator: 0 for a source, else one past its deepest input (back edges of delays skipped). */
function depths(operators) {
  const index = new Map(operators.map((op, i) => [op.id, i]));
  const depth = [];
  operators.forEach((op, i) => {
    const ins = op.inputs.map((id) => index.get(id)).filter((j) => j !== undefined && j < i);
    depth.push(ins.length ? 1 + Math.max(...ins.map((j) => depth[j])) : 0);
  });
  return depth;
}

export class CircuitPanel {
  #body;
  #shape = null;       // ids and kinds of the drawn circuit: redrawn when it changes
  #boxes = new Map();  // id -> { rows, time } text elements

  /** @param {HTMLElement} body */
  constructor(body) {
    this.#body = body;
  }

  /** @param {object | null} circuit the worker's status.circuit: { operators } with figures, or null */
  render(circuit) {
    if (!circuit) {
      if (this.#shape !== 'none') {
        this.#body.replaceChildren(h('div', { class: 'muted', text: 'not available from this source' }));
        this.#shape = 'none';
      }
      return;
    }
    const shape = circuit.operators.map((op) => `${op.id}:${op.kind}:${op.inputs.join('+')}`).join(' ');
    if (shape !== this.#shape) this.#draw(circuit.operators, shape);
    for (const op of circuit.operators) {
      const box = this.#boxes.get(op.id);
      setText(box.rows, `${formatCount(op.rows)} rows · ${formatBytes(op.bytes)}`);
      setText(box.time, `${op.lastStepMicros.toFixed(0)} µs last step`);
      box.group.dataset.rows = String(op.rows);
      box.group.dataset.bytes = String(op.bytes);
    }
  }

  #draw(operators, shape) {
    this.#shape = shape;
    this.#boxes.clear();
    const depth = depths(operators);
    const rowsAt = [];
    const place = new Map();
    operators.forEach((op, i) => {
      const column = depth[i];
      const row = (rowsAt[column] = (rowsAt[column] ?? 0) + 1) - 1;
      place.set(op.id, { x: 8 + column * (BOX_W + GAP_X), y: 8 + row * (BOX_H + GAP_Y) });
    });
    const width = 16 + (Math.max(...depth, 0) + 1) * (BOX_W + GAP_X);
    const height = 16 + Math.max(...rowsAt, 1) * (BOX_H + GAP_Y);
    const root = svg('svg', { class: 'circuit', width, height, viewBox: `0 0 ${width} ${height}` });
    for (const op of operators) {
      const to = place.get(op.id);
      for (const input of op.inputs) {
        const from = place.get(input);
        if (!from) continue;
        const back = from.x >= to.x;  // a delay's back edge
        root.append(svg('path', {
          class: back ? 'edge back' : 'edge',
          d: `M${from.x + BOX_W} ${from.y + BOX_H / 2} C${from.x + BOX_W + GAP_X / 2} ${from.y + BOX_H / 2} ${to.x - GAP_X / 2} ${to.y + BOX_H / 2} ${to.x} ${to.y + BOX_H / 2}`,
        }));
      }
    }
    for (const op of operators) {
      const { x, y } = place.get(op.id);
      const group = svg('g', { class: op.shared ? 'operator shared' : 'operator', transform: `translate(${x} ${y})` });
      group.dataset.id = op.id;
      group.dataset.kind = op.kind;
      const title = svg('title');
      title.textContent = [`${op.id} ${op.kind} ${op.description}`, op.outputs.join(', '), op.views.length ? `views: ${op.views.join(', ')}` : '']
        .filter(Boolean).join('\n');
      const label = svg('text', { x: 8, y: 16, class: 'op-kind' });
      label.textContent = `${op.id} ${op.kind}${op.outputs.length ? ` = ${op.outputs[0].split(' ')[1]}` : ''}`;
      const rows = svg('text', { x: 8, y: 32, class: 'op-figure' });
      const time = svg('text', { x: 8, y: 46, class: 'op-figure' });
      group.append(title, svg('rect', { width: BOX_W, height: BOX_H, rx: 6 }), label, rows, time);
      root.append(group);
      this.#boxes.set(op.id, { group, rows, time });
    }
    this.#body.replaceChildren(h('div', { class: 'circuit-scroll' }, root));
  }
}
