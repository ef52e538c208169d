// The SQL panel: the program in a textarea over a highlight layer (a <pre>
// with the same font, padding and scroll) that marks the line and column of
// a compile error, with line numbers in a gutter. "Apply" hands the text to
// the source; an error leaves the running program as it was.

import { h } from './dom.js';

export class SqlPanel {
  #editor;
  #gutter;
  #highlight;
  #message;
  #apply;
  #onApply;

  /** @param {HTMLElement} container @param {{ onApply: (sql: string) => Promise<void>, sampleSql: string }} options */
  constructor(container, { onApply, sampleSql }) {
    this.#onApply = onApply;
    this.#editor = h('textarea', { class: 'sql-editor', spellcheck: 'false', 'aria-label': 'SQL program', wrap: 'off' });
    this.#gutter = h('pre', { class: 'sql-gutter', 'aria-hidden': 'true' });
    this.#highlight = h('pre', { class: 'sql-highlight', 'aria-hidden': 'true' });
    this.#message = h('div', { class: 'sql-message', role: 'status' });
    this.#apply = h('button', { class: 'primary', text: 'Apply program', onclick: () => this.#applyNow() });
    const revert = h('button', { text: 'Sample program', onclick: () => this.#setText(sampleSql) });
    this.#editor.addEventListener('input', () => this.#clearError());
    this.#editor.addEventListener('scroll', () => this.#syncScroll());
    this.#editor.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) this.#applyNow();
    });
    container.append(
      h('div', { class: 'sql-box' }, this.#gutter, h('div', { class: 'sql-layers' }, this.#highlight, this.#editor)),
      h('div', { class: 'sql-actions' }, this.#apply, revert, h('span', { class: 'hint', text: 'Ctrl+Enter applies' }), this.#message));
  }

  /** Shows the running program (when the user is not editing another). */
  showProgram(sql) {
    if (this.#editor.value === '' || !this.#editor.dataset.edited) this.#setText(sql);
  }

  disable(reason) {
    this.#editor.readOnly = true;
    this.#apply.disabled = true;
    this.#message.textContent = reason;
  }

  #setText(sql) {
    this.#editor.value = sql;
    this.#clearError();
    delete this.#editor.dataset.edited;
  }

  async #applyNow() {
    this.#apply.disabled = true;
    this.#message.className = 'sql-message';
    this.#message.textContent = 'compiling…';
    try {
      await this.#onApply(this.#editor.value);
      delete this.#editor.dataset.edited;
      this.#message.className = 'sql-message ok';
      this.#message.textContent = 'applied ✓ — a new pipeline runs this program';
    } catch (error) {
      this.#showError(error);
    } finally {
      this.#apply.disabled = false;
    }
  }

  #showError(error) {
    const { line, column } = error.details ?? {};
    this.#message.className = 'sql-message error';
    this.#message.textContent = `${error.code ?? 'ERROR'}: ${error.message} — the previous program keeps running`;
    const panel = this.#editor.closest('section');
    if (line) {
      panel.dataset.errorLine = line;
      panel.dataset.errorColumn = column;
      this.#drawLayers(line, column);
      // Put the caret on the offending token.
      const lines = this.#editor.value.split('\n');
      const offset = lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0) + Math.max(0, column - 1);
      this.#editor.focus();
      this.#editor.setSelectionRange(offset, offset);
      this.#syncScroll();  // the caret may have scrolled the textarea
    }
  }

  #clearError() {
    this.#editor.dataset.edited = 'yes';
    const panel = this.#editor.closest('section');
    if (panel) {
      delete panel.dataset.errorLine;
      delete panel.dataset.errorColumn;
    }
    if (this.#message.classList.contains('error')) {
      this.#message.className = 'sql-message';
      this.#message.textContent = '';
    }
    this.#drawLayers(null, null);
  }

  // The highlight layer holds the same text, so the marked line sits exactly
  // under the textarea's; the gutter numbers the lines.
  #drawLayers(errorLine, errorColumn) {
    const lines = this.#editor.value.split('\n');
    this.#gutter.replaceChildren(...lines.map((_, i) => h('span', { class: i + 1 === errorLine ? 'error' : '', text: `${i + 1}\n` })));
    this.#highlight.replaceChildren(...lines.flatMap((text, i) => {
      if (i + 1 !== errorLine) return [h('span', { text: `${text}\n` })];
      const at = Math.max(0, errorColumn - 1);
      const token = /^[\w$]+|^\S/.exec(text.slice(at))?.[0] ?? ' ';
      // The line break stays outside the inline-block, or it would swallow a line.
      return [h('span', { class: 'error-line' }, text.slice(0, at), h('mark', { text: token }), text.slice(at + token.length)), '\n'];
    }), '\n\n');  // room to scroll as far as the textarea does
    this.#syncScroll();
  }

  #syncScroll() {
    this.#highlight.scrollTop = this.#editor.scrollTop;
    this.#highlight.scrollLeft = this.#editor.scrollLeft;
    this.#gutter.scrollTop = this.#editor.scrollTop;
  }
}
